package io.rdmareactive.micronaut.internal;

/** A message whose envelope (see {@link Envelope}) is not one this module writes: what is wrong with it. */
public final class RdmaEnvelopeException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    RdmaEnvelopeException(final String message) {
        super(message);
    }
}
