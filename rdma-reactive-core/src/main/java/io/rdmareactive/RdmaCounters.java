package io.rdmareactive;

import io.rdmareactive.internal.driver.DriverCounters;

/**
 * A snapshot of the counters of the runtime that serves a server's or a client's connections (the same figures as
 * its counters file, which {@code CountersReaderTool} prints; every server and connection on one runtime shows the
 * same). Values only grow; after the runtime closed, the last snapshot's values are all zero ({@link #CLOSED}).
 *
 * @param messagesSent       messages handed to the transport
 * @param messagesReceived   messages delivered to the inbound rings
 * @param bytesSent          payload bytes handed to the transport
 * @param bytesReceived      payload bytes delivered to the inbound rings
 * @param backPressureEvents times a send found its ring full
 * @param creditStalls       times a sender had data but no credit
 * @param errors             errors caught by the event loops
 * @param loopStalls         times a subscriber or handler held its event loop longer than the stall threshold
 *                           ({@code -Drdma.loop.stallThreshold}, 50 ms by default): every connection of that loop
 *                           waited meanwhile; move such work off the loop with {@code publishOn}
 */
public record RdmaCounters(long messagesSent, long messagesReceived, long bytesSent, long bytesReceived,
                           long backPressureEvents, long creditStalls, long errors, long loopStalls) {

    /** What a closed runtime reports. */
    public static final RdmaCounters CLOSED = new RdmaCounters(0, 0, 0, 0, 0, 0, 0, 0);

    static RdmaCounters of(final DriverCounters counters) {
        final long[] values = new long[8];
        if (!counters.readSystem(values)) {
            return CLOSED;
        }
        return new RdmaCounters(values[0], values[1], values[2], values[3], values[4], values[5], values[6],
            values[7]);
    }
}
