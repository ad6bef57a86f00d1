/**
 * A shopping cart for the web fixture (an ES module).
 */

import { logLine } from './logger.cjs';
import Ledger from './ledger.js';

export const CURRENCY = 'EUR';
let carts = 0;

/**
 * Sums the prices of the items.
 * @param {{price: number}[]} items - what is in the cart
 * @param {number} rate - the tax rate
 * @returns {number} the subtotal
 */
export function subtotal(items, rate = 0) {
  carts++;
  logLine('subtotal', items.length);
  return items.reduce((s, it) => s + it.price, 0) * (1 + rate);
}

export class Cart {
  #history = new Ledger();

  constructor(owner) {
    this.owner = owner;
    this.items = [];
    this.ledger = new Ledger();
  }

  /** Adds an item to the cart. */
  addItem(item) {
    this.items.push(item);
    this.ledger.record(item);
    this.#note('addItem');
    return this;
  }

  /**
   * Checks out and returns what is due.
   * @param {number} rate - the tax rate
   * @throws {RangeError} when the cart is empty
   */
  checkout(rate) {
    if (this.items.length === 0) {
      throw new RangeError('empty cart');
    }
    return subtotal(this.items, rate);
  }

  #note(op) {
    this.#history.record(op);
  }
}

export default Cart;
