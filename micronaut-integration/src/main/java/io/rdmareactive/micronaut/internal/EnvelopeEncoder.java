package io.rdmareactive.micronaut.internal;

import io.rdmareactive.codec.Codec;
import io.rdmareactive.codec.CodecException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Writes the {@link Envelope} header, then the body in place with the body's codec: the route and the headers with
 * the stream's first message, two bytes with each later one. One per stream (it remembers whether the first message
 * went out), used by one sender at a time. The length it reports is exact, as {@link Codec} requires.
 *
 * @param <T> the body type
 */
final class EnvelopeEncoder<T> implements Codec<T> {

    private final Codec<T> body;
    private final byte[] firstHeader;
    private final byte[] laterHeader = {Envelope.MAGIC, 0};
    private boolean firstSent;

    EnvelopeEncoder(final String route, final Map<String, String> headers, final Codec<T> body) {
        this.body = body;
        this.firstHeader = firstHeader(route, headers);
    }

    private static byte[] firstHeader(final String route, final Map<String, String> headers) {
        final byte[] routeBytes = route.getBytes(StandardCharsets.UTF_8);
        if (routeBytes.length == 0 || routeBytes.length > Envelope.MAX_ROUTE_LENGTH) {
            throw new IllegalArgumentException("a channel name must be 1 to " + Envelope.MAX_ROUTE_LENGTH
                + " bytes of UTF-8: '" + route + "'");
        }
        if (headers.size() > Envelope.MAX_HEADERS) {
            throw new IllegalArgumentException("at most " + Envelope.MAX_HEADERS + " headers: " + headers.size());
        }
        final ExpandableArrayBuffer out = new ExpandableArrayBuffer(64);
        int at = 0;
        out.putByte(at++, Envelope.MAGIC);
        out.putByte(at++, (byte) (Envelope.FLAG_ROUTE | (headers.isEmpty() ? 0 : Envelope.FLAG_HEADERS)));
        at = putString(out, at, routeBytes);
        if (!headers.isEmpty()) {
            out.putShort(at, (short) headers.size(), ByteOrder.LITTLE_ENDIAN);
            at += 2;
            for (final Map.Entry<String, String> header : headers.entrySet()) {
                at = putString(out, at, checked(header.getKey()));
                at = putString(out, at, checked(header.getValue()));
            }
        }
        final byte[] bytes = new byte[at];
        out.getBytes(0, bytes);
        return bytes;
    }

    private static byte[] checked(final String text) {
        final byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > Envelope.MAX_HEADER_LENGTH) {
            throw new IllegalArgumentException("a header name or value is longer than " + Envelope.MAX_HEADER_LENGTH
                + " bytes: " + bytes.length);
        }
        return bytes;
    }

    private static int putString(final MutableDirectBuffer out, final int at, final byte[] bytes) {
        out.putShort(at, (short) bytes.length, ByteOrder.LITTLE_ENDIAN);
        out.putBytes(at + 2, bytes);
        return at + 2 + bytes.length;
    }

    @Override
    public String name() {
        return "rdma-envelope(" + body.name() + ")";
    }

    @Override
    public int encodedLength(final T value) {
        return header().length + body.encodedLength(value);
    }

    @Override
    public int encode(final T value, final MutableDirectBuffer buffer, final int offset, final int maxLength) {
        final byte[] header = header();
        if (maxLength < header.length) {
            throw new CodecException(name(), maxLength + " bytes cannot hold the " + header.length
                + "-byte envelope");
        }
        final int written = body.encode(value, buffer, offset + header.length, maxLength - header.length);
        buffer.putBytes(offset, header);
        firstSent = true;
        return header.length + written;
    }

    @Override
    public T decode(final DirectBuffer buffer, final int offset, final int length) {
        throw new UnsupportedOperationException("an envelope encoder does not decode; servers use StreamDecoder");
    }

    @Override
    public boolean decodesToView() {
        return body.decodesToView();
    }

    private byte[] header() {
        return firstSent ? laterHeader : firstHeader;
    }
}
