package io.rdmareactive.samples.docs;

/**
 * What an order got, the answer of the codec examples (sent as JSON).
 *
 * @param orderId the order's number
 * @param filled  how many of it were filled
 */
public record Fill(long orderId, int filled) {
}
