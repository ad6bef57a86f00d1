import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Cart, subtotal } from '../src/cart.js';

describe('subtotal', () => {
  it('sums item prices', () => {
    assert.equal(subtotal([{ price: 1 }, { price: 2 }]), 3);
  });
});

describe('Cart', () => {
  it('addItem grows the cart', () => {
    const cart = new Cart('bo');
    cart.addItem({ price: 1 });
    assert.equal(cart.items.length, 1);
  });

  it('checkout throws on an empty cart', () => {
    assert.throws(() => new Cart('cy').checkout(0), RangeError);
  });
});
