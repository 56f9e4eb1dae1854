package io.rdmareactive.perf.compare.transport;

import org.agrona.DirectBuffer;

/** The client side of one stream of a {@link Session}, used by one thread. */
public interface Link {

    /**
     * Tries to send one message without blocking.
     *
     * @return {@code true} once the message's bytes are the transport's (the caller may reuse its buffer),
     *     {@code false} when the transport pushes back (no credit, full queue, unwritable channel): try again later
     */
    boolean offer(DirectBuffer buffer, int offset, int length);

    /**
     * Does the client side's receiving work on the caller's thread, for transports that are polled (replies and
     * credits); transports that call back on threads of their own return 0.
     *
     * @return how much work was done, 0 when none
     */
    int poll();
}
