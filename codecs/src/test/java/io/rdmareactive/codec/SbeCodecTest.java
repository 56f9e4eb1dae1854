package io.rdmareactive.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.rdmareactive.codec.SbeSamples.Leg;
import io.rdmareactive.codec.SbeSamples.Order;
import io.rdmareactive.codec.SbeSamples.Quote;
import io.rdmareactive.codec.sbe.sample.OrderDecoder;
import io.rdmareactive.codec.sbe.sample.OrderEncoder;
import io.rdmareactive.codec.sbe.sample.QuoteDecoder;
import io.rdmareactive.codec.sbe.sample.QuoteEncoder;
import io.rdmareactive.codec.sbe.sample.Side;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The SBE adapter over the flyweights that sbe-tool generated from {@code src/test/resources/sbe/sample-schema.xml}:
 * fixed-length and variable-length messages round-trip at any offset of any buffer, in place; the header is
 * checked; older schema versions decode; hostile and truncated bytes are refused with a {@link CodecException}.
 */
class SbeCodecTest {

    @BeforeContainer
    static void boundsChecksOn() {
        TestBuffers.assertBoundsChecksOn();
    }

    @Property(tries = 300)
    void quotesRoundTrip(@ForAll("quotes") final Quote quote, @ForAll final TestBuffers.Kind kind,
                         @ForAll @IntRange(max = 64) final int offset, @ForAll @IntRange(max = 16) final int slack) {
        final byte[] expected = encodeStandalone(SbeSamples.QUOTES, quote);
        assertThat(expected).hasSize(SbeCodec.HEADER_LENGTH + QuoteEncoder.BLOCK_LENGTH);
        assertThat(RoundTripPropertiesTest.roundTrip(SbeSamples.QUOTES, quote, expected, kind, offset, slack,
            Function.identity())).containsOnly(quote);
    }

    @Property(tries = 200)
    void ordersWithGroupsAndDataRoundTrip(@ForAll("orders") final Order order, @ForAll final TestBuffers.Kind kind,
                                          @ForAll @IntRange(max = 64) final int offset,
                                          @ForAll @IntRange(max = 16) final int slack) {
        final byte[] expected = encodeStandalone(SbeSamples.ORDERS, order);
        assertThat(RoundTripPropertiesTest.roundTrip(SbeSamples.ORDERS, order, expected, kind, offset, slack,
            Function.identity())).containsOnly(order);
    }

    @Property(tries = 200)
    void viewsDecodeInPlaceAndForwardWhatTheyView(@ForAll("quotes") final Quote quote,
                                                  @ForAll @IntRange(max = 64) final int offset) {
        final MutableDirectBuffer ring = TestBuffers.Kind.OFF_HEAP.allocate(offset + 64);
        final int length = SbeSamples.QUOTES.encode(quote, ring, offset, SbeSamples.QUOTES.encodedLength(quote));

        final QuoteDecoder view = SbeSamples.QUOTE_VIEWS.decode(ring, offset, length);
        assertThat(view.instrumentId()).isEqualTo(quote.instrumentId());
        assertThat(view.venue()).isEqualTo(quote.venue());
        ring.putLong(offset + SbeCodec.HEADER_LENGTH, 7L); // the view sees the ring: no copy
        assertThat(view.instrumentId()).isEqualTo(7L);

        // forwarding a received view encodes the same message
        final UnsafeBuffer forwarded = new UnsafeBuffer(new byte[length]);
        assertThat(SbeSamples.QUOTE_VIEWS.encode(view, forwarded, 0, SbeSamples.QUOTE_VIEWS.encodedLength(view)))
            .isEqualTo(length);
        assertThat(forwarded.byteArray()).isEqualTo(TestBuffers.bytesOf(ring, offset, length));
        assertThat(SbeSamples.QUOTE_VIEWS.decodesToView()).isTrue();
        assertThat(SbeSamples.QUOTES.decodesToView()).isFalse();
    }

    @Example
    void emptyAndLargeVariableLengthFieldsRoundTrip() {
        final Order empty = new Order(0, 0, 0, Side.BUY, List.of(), "", "");
        final Order large = new Order(Long.MAX_VALUE, Long.MIN_VALUE, Integer.MAX_VALUE, Side.SELL,
            java.util.stream.IntStream.range(0, 4000).mapToObj(i -> new Leg(i, -i)).toList(),
            "GRÜN €😀", "ä€😀x".repeat(Values.MIB / 10));
        for (final Order order : List.of(empty, large)) {
            final byte[] expected = encodeStandalone(SbeSamples.ORDERS, order);
            assertThat(RoundTripPropertiesTest.roundTrip(SbeSamples.ORDERS, order, expected,
                TestBuffers.Kind.OFF_HEAP, 5, 0, Function.identity())).containsOnly(order);
        }
        assertThat(SbeSamples.ORDERS.encodedLength(empty))
            .isEqualTo(SbeCodec.HEADER_LENGTH + OrderEncoder.BLOCK_LENGTH + 4 + 4 + 4);
    }

    @Example
    void theHeaderIsSbesStandardHeaderLittleEndian() {
        final Quote quote = new Quote(1, 2, 3, 4, 5, 6);
        final UnsafeBuffer buffer = new UnsafeBuffer(encodeStandalone(SbeSamples.QUOTES, quote));
        assertThat(buffer.getShort(0, ByteOrder.LITTLE_ENDIAN)).isEqualTo((short) QuoteEncoder.BLOCK_LENGTH);
        assertThat(buffer.getShort(2, ByteOrder.LITTLE_ENDIAN)).isEqualTo((short) QuoteEncoder.TEMPLATE_ID);
        assertThat(buffer.getShort(4, ByteOrder.LITTLE_ENDIAN)).isEqualTo((short) QuoteEncoder.SCHEMA_ID);
        assertThat(buffer.getShort(6, ByteOrder.LITTLE_ENDIAN)).isEqualTo((short) QuoteEncoder.SCHEMA_VERSION);
        assertThat(buffer.getLong(8, ByteOrder.LITTLE_ENDIAN)).isEqualTo(1L);
    }

    @Example
    void aMessageOfAnOlderSchemaVersionDecodes() {
        // version 0 of Quote had no venue: a 32-byte block
        final UnsafeBuffer old = new UnsafeBuffer(new byte[SbeCodec.HEADER_LENGTH + 32]);
        old.putShort(0, (short) 32, ByteOrder.LITTLE_ENDIAN);
        old.putShort(2, (short) QuoteEncoder.TEMPLATE_ID, ByteOrder.LITTLE_ENDIAN);
        old.putShort(4, (short) QuoteEncoder.SCHEMA_ID, ByteOrder.LITTLE_ENDIAN);
        old.putShort(6, (short) 0, ByteOrder.LITTLE_ENDIAN);
        old.putLong(8, 11, ByteOrder.LITTLE_ENDIAN);
        old.putInt(8 + 28, 99, ByteOrder.LITTLE_ENDIAN);

        final Quote decoded = SbeSamples.QUOTES.decode(old, 0, old.capacity());

        assertThat(decoded.instrumentId()).isEqualTo(11);
        assertThat(decoded.askSize()).isEqualTo(99);
        assertThat(decoded.venue()).as("the null value of a field added later")
            .isEqualTo(QuoteDecoder.venueNullValue());
    }

    @Example
    void anotherTemplateOrABlockPastTheRangeIsRefused() {
        final byte[] order = encodeStandalone(SbeSamples.ORDERS, new Order(1, 2, 3, Side.BUY, List.of(), "a", "b"));
        assertThatThrownBy(() -> SbeSamples.QUOTES.decode(new UnsafeBuffer(order), 0, order.length))
            .isExactlyInstanceOf(CodecException.class)
            .hasMessage("sbe-quote: expected template 1 of schema 42, got template 2 of schema 42 in [offset 0, "
                + "length " + order.length + ")");

        final byte[] quote = encodeStandalone(SbeSamples.QUOTES, new Quote(1, 2, 3, 4, 5, 6));
        assertThatThrownBy(() -> SbeSamples.QUOTES.decode(new UnsafeBuffer(quote), 0, quote.length - 1))
            .isExactlyInstanceOf(CodecException.class)
            .hasMessage("sbe-quote: block length 36 does not fit in [offset 0, length 43) after the header");
        assertThatThrownBy(() -> SbeSamples.QUOTES.decode(new UnsafeBuffer(quote), 0, 7))
            .isExactlyInstanceOf(CodecException.class)
            .hasMessageContaining("starts with an 8-byte header");
    }

    @Example
    void aDataLengthPointingPastTheRangeIsRefusedBeforeAnythingTrustsIt() {
        final byte[] bytes = encodeStandalone(SbeSamples.ORDERS, new Order(1, 2, 3, Side.BUY, List.of(), "ab", ""));
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        final int symbolLengthAt = SbeCodec.HEADER_LENGTH + OrderEncoder.BLOCK_LENGTH + 4;
        for (final int hostile : new int[] {3, 1 << 30, Integer.MAX_VALUE, -1, -4, -2}) {
            buffer.putInt(symbolLengthAt, hostile, ByteOrder.LITTLE_ENDIAN);
            for (final Codec<?> codec : List.of(SbeSamples.ORDERS)) {
                final Throwable thrown = catchThrowable(() -> codec.decode(buffer, 0, bytes.length));
                assertThat(thrown).as("data length %d", hostile).isExactlyInstanceOf(CodecException.class)
                    .hasMessageStartingWith("sbe-order: ");
            }
        }
    }

    @Example
    void aWriterThatDisagreesWithTheLengthItPromisedIsReportedAndStaysInItsRange() {
        final SbeCodec<Order, OrderEncoder, OrderDecoder> tooShort = SbeCodec.<Order, OrderEncoder, OrderDecoder>of(
                "sbe-order-short", OrderEncoder::new, OrderDecoder::new, SbeSamples::write, SbeSamples::read)
            .withVariableLength(order -> SbeSamples.bytesBeyondBlock(order) - 1);
        final SbeCodec<Order, OrderEncoder, OrderDecoder> tooLong = SbeCodec.<Order, OrderEncoder, OrderDecoder>of(
                "sbe-order-long", OrderEncoder::new, OrderDecoder::new, SbeSamples::write, SbeSamples::read)
            .withVariableLength(order -> SbeSamples.bytesBeyondBlock(order) + 1);
        final Order order = new Order(1, 2, 3, Side.SELL, List.of(new Leg(4, 5)), "sym", "note");
        final MutableDirectBuffer ring = TestBuffers.Kind.HEAP.allocate(200);

        final int shortLength = tooShort.encodedLength(order);
        assertThatThrownBy(() -> tooShort.encode(order, ring, 10, shortLength))
            .isExactlyInstanceOf(CodecException.class)
            .hasMessageStartingWith("sbe-order-short: the writer failed or went past the " + shortLength + " bytes");
        TestBuffers.assertCanaryOutside(ring, 10, 10 + shortLength);

        final int longLength = tooLong.encodedLength(order);
        assertThatThrownBy(() -> tooLong.encode(order, ring, 10, longLength))
            .isExactlyInstanceOf(CodecException.class)
            .hasMessage("sbe-order-long: the writer wrote " + (longLength - 1) + " bytes where encodedLength "
                + "promised " + longLength + " in [offset 10, length " + longLength
                + "): the variable-length function and the writer disagree");
        assertThatThrownBy(() -> tooLong.withVariableLength(o -> -1).encodedLength(order))
            .isExactlyInstanceOf(CodecException.class).hasMessageContaining("not a length");
    }

    @Example
    void encoderAndDecoderOfDifferentMessagesAreRefusedAtConstruction() {
        assertThatThrownBy(() -> SbeCodec.<Quote, QuoteEncoder, OrderDecoder>of("mixed", QuoteEncoder::new,
                OrderDecoder::new, (q, e) -> { }, d -> null))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("different messages");
    }

    @Example
    void oneCodecServesManyThreadsEachWithItsOwnFlyweights() throws Exception {
        final int threads = 2;
        final java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
        try {
            final List<java.util.concurrent.Future<Boolean>> results = new java.util.ArrayList<>();
            for (int t = 0; t < threads; t++) {
                final int seed = t;
                results.add(pool.submit(() -> {
                    final UnsafeBuffer buffer = new UnsafeBuffer(new byte[512]);
                    for (int i = 0; i < 20_000; i++) {
                        final Order order = new Order(seed, i, i, Side.BUY, List.of(new Leg(i, seed)), "s" + i, "");
                        final int length = SbeSamples.ORDERS.encode(order, buffer, 0,
                            SbeSamples.ORDERS.encodedLength(order));
                        if (!SbeSamples.ORDERS.decode(buffer, 0, length).equals(order)) {
                            return false;
                        }
                    }
                    return true;
                }));
            }
            for (final java.util.concurrent.Future<Boolean> result : results) {
                assertThat(result.get()).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Property(tries = 1000)
    void hostileBytesAreDecodedOrRefusedNeverReadPastTheRange(@ForAll("codecs") final Codec<?> codec,
                                                              @ForAll("hostile") final byte[] bytes) {
        final UnsafeBuffer exact = new UnsafeBuffer(bytes); // a read past the range fails Agrona's bounds check
        HostileDecodePropertiesTest.assertNothingButCodecException(codec,
            catchThrowable(() -> codec.decode(exact, 0, bytes.length)));
    }

    @Property(tries = 300)
    void truncatedMessagesAreRefusedOrDecodeToWhatTheyStillHold(@ForAll("orders") final Order order,
                                                                @ForAll @IntRange(max = 100_000) final int cut) {
        final byte[] whole = encodeStandalone(SbeSamples.ORDERS, order);
        final byte[] truncated = Arrays.copyOf(whole, Math.min(cut, whole.length - 1));
        final UnsafeBuffer exact = new UnsafeBuffer(truncated);
        final Throwable thrown = catchThrowable(() -> SbeSamples.ORDERS.decode(exact, 0, truncated.length));
        assertThat(thrown).isExactlyInstanceOf(CodecException.class).hasMessageStartingWith("sbe-order: ");
    }

    @Provide
    Arbitrary<Codec<?>> codecs() {
        return Arbitraries.of(SbeSamples.QUOTES, SbeSamples.QUOTE_VIEWS, SbeSamples.ORDERS);
    }

    /**
     * Random bytes; random bytes behind a valid header of each template (so decoding reaches the block, the group
     * and the data lengths); and valid messages with a few bytes changed.
     */
    @Provide
    Arbitrary<byte[]> hostile() {
        final Arbitrary<byte[]> random = Arbitraries.bytes().array(byte[].class).ofMaxSize(200);
        final Arbitrary<byte[]> behindHeader = net.jqwik.api.Combinators.combine(
                Arbitraries.of(QuoteEncoder.TEMPLATE_ID, OrderEncoder.TEMPLATE_ID), Arbitraries.integers().between(0, 60),
                Arbitraries.integers().between(0, 3), random)
            .as((template, block, version, body) -> {
                final UnsafeBuffer bytes = new UnsafeBuffer(new byte[SbeCodec.HEADER_LENGTH + body.length]);
                bytes.putShort(0, (short) (int) block, ByteOrder.LITTLE_ENDIAN);
                bytes.putShort(2, (short) (int) template, ByteOrder.LITTLE_ENDIAN);
                bytes.putShort(4, (short) QuoteEncoder.SCHEMA_ID, ByteOrder.LITTLE_ENDIAN);
                bytes.putShort(6, (short) (int) version, ByteOrder.LITTLE_ENDIAN);
                bytes.putBytes(SbeCodec.HEADER_LENGTH, body);
                return bytes.byteArray();
            });
        final Arbitrary<byte[]> corrupted = net.jqwik.api.Combinators.combine(smallOrders(),
                Arbitraries.integers().between(0, 10_000).list().ofMinSize(1).ofMaxSize(4), Arbitraries.bytes())
            .as((order, positions, replacement) -> {
                final byte[] bytes = encodeStandalone(SbeSamples.ORDERS, order);
                for (final int position : positions) {
                    bytes[position % bytes.length] = replacement;
                }
                return bytes;
            });
        return Arbitraries.oneOf(random, behindHeader, corrupted);
    }

    private static Arbitrary<Order> smallOrders() {
        return SbeSamples.orders().filter(order -> order.note().length() < 100 && order.symbol().length() < 100);
    }

    @Provide
    Arbitrary<Quote> quotes() {
        return SbeSamples.quotes();
    }

    @Provide
    Arbitrary<Order> orders() {
        return SbeSamples.orders();
    }

    static <T> byte[] encodeStandalone(final Codec<T> codec, final T value) {
        final int length = codec.encodedLength(value);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[length]);
        assertThat(codec.encode(value, buffer, 0, length)).isEqualTo(length);
        return buffer.byteArray();
    }
}
