import { Cart, subtotal } from './cart.js';
import * as logging from './logger.cjs';

function start() {
  const cart = new Cart('ann');
  cart.addItem({ price: 2 });
  logging.logLine('due', cart.checkout(0.1), subtotal(cart.items));
}

start();
