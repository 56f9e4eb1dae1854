package io.rdmareactive.samples.micronaut;

/**
 * An order the order service places.
 *
 * @param id       the order's id
 * @param symbol   what is bought
 * @param quantity how many
 */
public record Order(String id, String symbol, int quantity) {
}
