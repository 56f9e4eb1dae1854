package io.rdmareactive.perf.compare.transport;

import org.agrona.DirectBuffer;

/** Receives one message: its bytes are valid only until the call returns. */
@FunctionalInterface
public interface MessageHandler {

    /**
     * @param buffer holds the message
     * @param offset where it starts
     * @param length its length in bytes
     */
    void onMessage(DirectBuffer buffer, int offset, int length);
}
