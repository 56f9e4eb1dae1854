package io.rdmareactive.samples.micronaut;

/**
 * The pricing service's price for a symbol, or for an order.
 *
 * @param reference   the symbol or the order id it prices
 * @param priceCents  the price, in cents
 */
public record Quote(String reference, long priceCents) {

    /** @return the price as 101.25 */
    public String price() {
        return priceCents / 100 + "." + String.format("%02d", priceCents % 100);
    }
}
