package io.rdmareactive.micronaut.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.rdmareactive.codec.CodecException;
import io.rdmareactive.codec.Codecs;
import java.util.LinkedHashMap;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** The envelope in front of each body: exact lengths, the route once per stream, and garbage refused by name. */
class EnvelopeTest {

    private static ListenerRoute route(final String channel) {
        return new ListenerRoute("default", channel, null, null, java.util.List.of(), false, false,
            Codecs.UTF8_STRING, null, 1, 1, null, null);
    }

    private static UnsafeBuffer encode(final EnvelopeEncoder<String> encoder, final String body) {
        final int length = encoder.encodedLength(body);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[length]);
        assertThat(encoder.encode(body, buffer, 0, length)).isEqualTo(length);
        return buffer;
    }

    @Test
    void theFirstMessageCarriesRouteAndHeadersAndLaterOnesOnlyTwoBytes() {
        final Map<String, String> headers = new LinkedHashMap<>();
        headers.put("trace", "t-1");
        headers.put("tenant", "é");
        final EnvelopeEncoder<String> encoder = new EnvelopeEncoder<>("quotes", headers, Codecs.UTF8_STRING);
        final StreamDecoder decoder = new StreamDecoder(EnvelopeTest::route);

        assertThat(decoder.decode(encode(encoder, "first"))).isEqualTo("first");
        assertThat(decoder.route().channel()).isEqualTo("quotes");
        assertThat(decoder.headers()).containsExactlyEntriesOf(headers);
        final UnsafeBuffer second = encode(encoder, "second");
        assertThat(second.capacity()).isEqualTo(2 + Codecs.UTF8_STRING.encodedLength("second"));
        assertThat(decoder.decode(second)).isEqualTo("second");
    }

    @Test
    void aFirstMessageWithoutARouteIsRefused() {
        final UnsafeBuffer message = new UnsafeBuffer(new byte[] {Envelope.MAGIC, 0, 'x'});
        assertThatThrownBy(() -> new StreamDecoder(EnvelopeTest::route).decode(message))
            .isInstanceOf(RdmaEnvelopeException.class).hasMessage("the first message of a stream names no channel");
    }

    @Test
    void aForeignMessageIsRefusedByItsFirstByte() {
        final UnsafeBuffer message = new UnsafeBuffer("hello".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThatThrownBy(() -> new StreamDecoder(EnvelopeTest::route).decode(message))
            .isInstanceOf(RdmaEnvelopeException.class)
            .hasMessage("not an rdma-reactive Micronaut envelope: first byte 0x68, expected 0xe7");
    }

    @Test
    void aRouteLongerThanTheMessageIsRefused() {
        final UnsafeBuffer message = new UnsafeBuffer(new byte[] {Envelope.MAGIC, Envelope.FLAG_ROUTE, 100, 0, 'a'});
        assertThatThrownBy(() -> new StreamDecoder(EnvelopeTest::route).decode(message))
            .isInstanceOf(RdmaEnvelopeException.class)
            .hasMessage("a channel name of 100 bytes at 4 does not fit in the message of 5 bytes");
    }

    @Property(tries = 2_000)
    void garbageIsRefusedWithAnEnvelopeOrCodecErrorAndNeverAnythingElse(@ForAll @Size(max = 64) final byte[] bytes,
                                                                        @ForAll final boolean magic) {
        if (magic && bytes.length > 0) {
            bytes[0] = Envelope.MAGIC;
        }
        try {
            new StreamDecoder(EnvelopeTest::route).decode(new UnsafeBuffer(bytes));
        } catch (final RdmaEnvelopeException | CodecException expected) {
            assertThat(expected.getMessage()).isNotBlank();
        }
    }
}
