package io.rdmareactive.samples.docs;

/**
 * An order, the message of the codec examples.
 *
 * @param id       the order's number
 * @param quantity how many
 */
public record Order(long id, int quantity) {
}
