package io.rdmareactive.micronaut.internal;

import io.rdmareactive.codec.Codec;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import org.agrona.DirectBuffer;

/**
 * Reads the {@link Envelope} of each message of one stream a server accepted: the first names the channel, which
 * {@code routes} turns into the listener method, whose body codec then decodes every body in place. One per stream,
 * used by the stream's one subscriber. Every length is checked against the message before it is read.
 */
final class StreamDecoder {

    private final Function<String, ListenerRoute> routes;
    private ListenerRoute route;
    private Map<String, String> headers = Map.of();

    StreamDecoder(final Function<String, ListenerRoute> routes) {
        this.routes = routes;
    }

    /**
     * @param message one whole message of the stream (a view valid only during the call)
     * @return its body, decoded by the channel's codec (a copy: routes accept copying codecs only)
     * @throws RdmaEnvelopeException if the envelope is garbled, or the first message names no channel
     * @throws IllegalArgumentException (from {@code routes}) if no listener serves the channel
     */
    Object decode(final DirectBuffer message) {
        final int length = message.capacity();
        if (length < Envelope.FIXED_LENGTH) {
            throw new RdmaEnvelopeException("a message of " + length + " bytes is shorter than the "
                + Envelope.FIXED_LENGTH + "-byte envelope");
        }
        final byte magic = message.getByte(0);
        if (magic != Envelope.MAGIC) {
            throw new RdmaEnvelopeException(String.format(
                "not an rdma-reactive Micronaut envelope: first byte 0x%02x, expected 0x%02x", magic & 0xFF,
                Envelope.MAGIC & 0xFF));
        }
        final int flags = message.getByte(1) & 0xFF;
        if ((flags & ~(Envelope.FLAG_ROUTE | Envelope.FLAG_HEADERS)) != 0) {
            throw new RdmaEnvelopeException(String.format("unknown envelope flags 0x%02x", flags));
        }
        int at = Envelope.FIXED_LENGTH;
        if ((flags & Envelope.FLAG_ROUTE) != 0) {
            final int routeLength = unsignedShort(message, at, "channel name");
            if (routeLength == 0 || routeLength > Envelope.MAX_ROUTE_LENGTH) {
                throw new RdmaEnvelopeException("a channel name of " + routeLength + " bytes (1 to "
                    + Envelope.MAX_ROUTE_LENGTH + " allowed)");
            }
            final String name = string(message, at + 2, routeLength, "channel name");
            at += 2 + routeLength;
            if (route == null) {
                route = routes.apply(name);
            } else if (!route.channel().equals(name)) {
                throw new RdmaEnvelopeException("the stream of channel '" + route.channel()
                    + "' named another channel later: '" + name + "'");
            }
        } else if (route == null) {
            throw new RdmaEnvelopeException("the first message of a stream names no channel");
        }
        if ((flags & Envelope.FLAG_HEADERS) != 0) {
            final int count = unsignedShort(message, at, "header count");
            at += 2;
            if (count == 0 || count > Envelope.MAX_HEADERS) {
                throw new RdmaEnvelopeException(count + " headers (1 to " + Envelope.MAX_HEADERS + " allowed)");
            }
            final Map<String, String> read = new LinkedHashMap<>();
            for (int i = 0; i < count; i++) {
                final int nameLength = unsignedShort(message, at, "header name");
                final String name = string(message, at + 2, nameLength, "header name");
                at += 2 + nameLength;
                final int valueLength = unsignedShort(message, at, "header value");
                final String value = string(message, at + 2, valueLength, "header value");
                at += 2 + valueLength;
                read.put(name, value);
            }
            headers = Collections.unmodifiableMap(read);
        }
        final Codec<?> body = route.bodyCodec();
        return body.decode(message, at, length - at);
    }

    /** @return the route the first message named, or null before it came */
    ListenerRoute route() {
        return route;
    }

    /** @return the headers the stream's first message carried */
    Map<String, String> headers() {
        return headers;
    }

    private static int unsignedShort(final DirectBuffer message, final int at, final String what) {
        if (at + 2 > message.capacity()) {
            throw new RdmaEnvelopeException("the envelope ends (at " + message.capacity() + " bytes) inside the length of a "
                + what);
        }
        return message.getShort(at, ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
    }

    private static String string(final DirectBuffer message, final int at, final int length, final String what) {
        if (length > Envelope.MAX_HEADER_LENGTH || at + length > message.capacity()) {
            throw new RdmaEnvelopeException("a " + what + " of " + length + " bytes at " + at
                + " does not fit in the message of " + message.capacity() + " bytes");
        }
        final byte[] bytes = new byte[length];
        message.getBytes(at, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
