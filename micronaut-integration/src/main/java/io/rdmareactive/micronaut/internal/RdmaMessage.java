package io.rdmareactive.micronaut.internal;

import io.rdmareactive.micronaut.RdmaStreamInfo;

/**
 * What a listener method's arguments are bound from: one message's body (or, for a method that takes the stream, the
 * whole stream as a {@code Flux}) and the stream's information and headers.
 *
 * @param body the decoded body, or the stream's bodies as a Flux
 * @param info the stream
 */
public record RdmaMessage(Object body, RdmaStreamInfo info) {
}
