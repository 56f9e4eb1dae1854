package io.rdmareactive;

import io.rdmareactive.internal.protocol.FrameHeaderFlyweight;
import io.rdmareactive.internal.protocol.FrameTap;
import org.agrona.DirectBuffer;
import reactor.util.Logger;
import reactor.util.Loggers;

/**
 * What {@code wiretap(true)} turns on: every frame a connection sends and receives, one DEBUG line each through
 * Reactor's {@link Loggers}: the connection, the direction, the stream, the frame type, the flags, the payload's
 * length and its first {@value #MAX_DUMPED_BYTES} bytes in hex, e.g.
 * {@code [client 1b2c3d4e shm:pid 4242] SENT stream=3 DATA flags=0xc0 length=12 5f0a000001000000707...}.
 * It formats only while the logger's DEBUG is enabled.
 */
final class Wiretap implements FrameTap {

    /** The payload bytes a line shows at most. */
    static final int MAX_DUMPED_BYTES = 64;
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private final Logger log;
    private final String connection;

    /**
     * @param category   the logger's name
     * @param connection how the lines name the connection
     */
    Wiretap(final String category, final String connection) {
        this.log = Loggers.getLogger(category);
        this.connection = connection;
    }

    @Override
    public void sent(final int stream, final short type, final byte flags, final DirectBuffer buffer,
                     final int payloadIndex, final int payloadLength) {
        log("SENT", stream, type, flags, buffer, payloadIndex, payloadLength);
    }

    @Override
    public void received(final int stream, final short type, final byte flags, final DirectBuffer buffer,
                         final int payloadIndex, final int payloadLength) {
        log("RECEIVED", stream, type, flags, buffer, payloadIndex, payloadLength);
    }

    private void log(final String direction, final int stream, final short type, final byte flags,
                     final DirectBuffer buffer, final int index, final int length) {
        if (!log.isDebugEnabled()) {
            return;
        }
        log.debug("[{}] {} stream={} {} flags=0x{} length={} {}", connection, direction, stream, typeName(type),
            Integer.toHexString(flags & 0xFF), length, hex(buffer, index, length));
    }

    /** @return the first {@link #MAX_DUMPED_BYTES} bytes in hex, with "..." when there are more */
    static String hex(final DirectBuffer buffer, final int index, final int length) {
        final int shown = Math.max(0, Math.min(length, MAX_DUMPED_BYTES));
        final StringBuilder text = new StringBuilder(shown * 2 + 3);
        for (int i = 0; i < shown; i++) {
            final int b = buffer.getByte(index + i) & 0xFF;
            text.append(HEX[b >>> 4]).append(HEX[b & 0xF]);
        }
        return length > shown ? text.append("...").toString() : text.toString();
    }

    static String typeName(final short type) {
        return switch (type) {
            case FrameHeaderFlyweight.DATA -> "DATA";
            case FrameHeaderFlyweight.REQUEST_N -> "REQUEST_N";
            case FrameHeaderFlyweight.CANCEL -> "CANCEL";
            case FrameHeaderFlyweight.COMPLETE -> "COMPLETE";
            case FrameHeaderFlyweight.ERROR -> "ERROR";
            case FrameHeaderFlyweight.OPEN -> "OPEN";
            case FrameHeaderFlyweight.KEEPALIVE -> "KEEPALIVE";
            case FrameHeaderFlyweight.CLOSE -> "CLOSE";
            case FrameHeaderFlyweight.REGION_CLOSED -> "REGION_CLOSED";
            default -> "TYPE_" + type;
        };
    }
}
