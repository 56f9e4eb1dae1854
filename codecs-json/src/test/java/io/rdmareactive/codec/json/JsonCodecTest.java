package io.rdmareactive.codec.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmareactive.codec.Codec;
import io.rdmareactive.codec.CodecException;
import io.rdmareactive.codec.CodecRegistry;
import io.rdmareactive.codec.Codecs;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * JSON round-trips any value of a bound type (empty, large and non-ASCII strings included) into heap, off-heap and
 * sliced buffers; hostile, truncated and trailing input is refused with a {@link CodecException}.
 */
class JsonCodecTest {

    record Trade(String symbol, long quantity, double price, List<String> tags, Map<String, Integer> legs) {
    }

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonCodec<Trade> TRADES = JsonCodec.of(MAPPER, Trade.class);

    @BeforeContainer
    static void boundsChecksOn() {
        assertThat(DirectBuffer.SHOULD_BOUNDS_CHECK)
            .as("Agrona bounds checks must be on (-D%s=false) or reads past a view go unnoticed",
                DirectBuffer.DISABLE_BOUNDS_CHECKS_PROP_NAME)
            .isTrue();
    }

    @Property(tries = 300)
    void tradesRoundTripAtAnyOffsetOfAnyBuffer(@ForAll("trades") final Trade trade,
                                               @ForAll("kinds") final int kind,
                                               @ForAll @IntRange(max = 64) final int offset,
                                               @ForAll @IntRange(max = 16) final int slack) throws IOException {
        final int length = TRADES.encodedLength(trade);
        assertThat(length).isEqualTo(MAPPER.writeValueAsBytes(trade).length);

        final MutableDirectBuffer buffer = buffer(kind, offset + length + slack + 5);
        buffer.setMemory(0, buffer.capacity(), (byte) 0x5A);
        assertThat(TRADES.encode(trade, buffer, offset, length + slack)).isEqualTo(length);
        assertThat(buffer.getByte(offset + length)).as("nothing written past the encoding").isEqualTo((byte) 0x5A);
        if (offset > 0) {
            assertThat(buffer.getByte(offset - 1)).isEqualTo((byte) 0x5A);
        }
        assertThat(MAPPER.readValue(bytes(buffer, offset, length), Trade.class)).isEqualTo(trade);

        assertThat(TRADES.decode(buffer, offset, length)).isEqualTo(trade);
        assertThat(TRADES.decode(new UnsafeBuffer(buffer, offset, length), 0, length)).as("from an exact view")
            .isEqualTo(trade);
    }

    @Example
    void encodeWithoutEncodedLengthFirstAndInterleavedCodecsAreStillRight() {
        final Trade a = new Trade("A", 1, 1.5, List.of(), Map.of());
        final Trade b = new Trade("BB", 2, 2.5, List.of("x"), Map.of("k", 1));
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
        final int lengthA = TRADES.encodedLength(a);
        final int lengthB = TRADES.encodedLength(b); // this thread's scratch now holds b
        assertThat(TRADES.encode(a, buffer, 0, lengthA)).isEqualTo(lengthA);
        assertThat(TRADES.decode(buffer, 0, lengthA)).isEqualTo(a);
        assertThat(TRADES.encode(b, buffer, 0, 256)).isEqualTo(lengthB);
        assertThat(TRADES.decode(buffer, 0, lengthB)).isEqualTo(b);

        final JsonCodec<String> strings = JsonCodec.of(MAPPER, String.class);
        final String same = "same";
        strings.encodedLength(same);
        final Codec<Object> objects = cast(JsonCodec.of(MAPPER, Object.class));
        assertThat(objects.encode(same, buffer, 0, 256)).isEqualTo(6); // "\"same\"": measured by another codec
    }

    @Example
    void aValueTooLargeForItsRangeIsRefusedAndNothingIsWritten() {
        final Trade trade = new Trade("ABC", 1, 2, List.of(), Map.of());
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[100]);
        final int length = TRADES.encodedLength(trade);
        assertThatThrownBy(() -> TRADES.encode(trade, buffer, 10, length - 1))
            .isExactlyInstanceOf(CodecException.class)
            .hasMessage("json:Trade: encoding needs " + length + " bytes, more than maxLength " + (length - 1)
                + " of [offset 10, length " + (length - 1) + ")");
        assertThat(buffer.byteArray()).containsOnly(0);
        assertThatThrownBy(() -> TRADES.encode(trade, buffer, 95, 10)).isExactlyInstanceOf(CodecException.class)
            .hasMessageContaining("not inside the buffer");
    }

    @Example
    void largeValuesRoundTripAndTheScratchDoesNotStayLarge() {
        final Trade large = new Trade("ü€😀".repeat(200_000), Long.MAX_VALUE, Double.MIN_VALUE,
            List.of("a".repeat(100_000), ""), Map.of("ß", -1));
        final int length = TRADES.encodedLength(large);
        assertThat(length).isGreaterThan(JsonCodec.MAX_RETAINED_SCRATCH);
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(16);
        assertThat(TRADES.encode(large, buffer, 3, length)).isEqualTo(length);
        assertThat(TRADES.decode(buffer, 3, length)).isEqualTo(large);
        final Trade empty = new Trade("", 0, 0, List.of(), Map.of());
        assertThat(TRADES.decode(buffer, 0, TRADES.encode(empty, buffer, 0, TRADES.encodedLength(empty))))
            .isEqualTo(empty);
    }

    @Example
    void malformedTruncatedTrailingAndNullInputIsRefused() {
        for (final String json : List.of("", " ", "{", "{\"symbol\":", "nul", "null", "[1,2]", "{}{}", "{} x",
            "{\"quantity\":\"many\"}", "\"text\"", "[".repeat(5000) + "]".repeat(5000), "\uFFFF")) {
            final byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
            assertThat(catchThrowable(() -> TRADES.decode(new UnsafeBuffer(bytes), 0, bytes.length)))
                .as(json.length() > 40 ? json.substring(0, 40) + "..." : json)
                .isExactlyInstanceOf(CodecException.class)
                .hasMessageStartingWith("json:Trade: ");
        }
        assertThatThrownBy(() -> TRADES.decode(new UnsafeBuffer("null".getBytes(StandardCharsets.UTF_8)), 0, 4))
            .hasMessage("json:Trade: JSON null in [offset 0, length 4) is no value to deliver");
    }

    @Property(tries = 500)
    void hostileBytesAreDecodedOrRefusedNeverReadPastTheRange(@ForAll("hostile") final byte[] bytes,
                                                              @ForAll final boolean offHeap) {
        final DirectBuffer exact = offHeap ? offHeap(bytes) : new UnsafeBuffer(bytes);
        final Throwable thrown = catchThrowable(() -> TRADES.decode(exact, 0, bytes.length));
        if (thrown != null) {
            assertThat(thrown).isExactlyInstanceOf(CodecException.class).hasMessageStartingWith("json:Trade: ");
        }
        final Throwable beyond = catchThrowable(() -> TRADES.decode(exact, 0, bytes.length + 1));
        assertThat(beyond).isExactlyInstanceOf(CodecException.class).hasMessageContaining("not inside the buffer");
    }

    @Property(tries = 200)
    void everyTruncationOfAValidEncodingIsRefused(@ForAll("trades") final Trade trade,
                                                  @ForAll @IntRange(max = 10_000) final int cut) {
        final byte[] whole = encode(trade);
        final byte[] truncated = Arrays.copyOf(whole, Math.min(cut, whole.length - 1));
        assertThat(catchThrowable(() -> TRADES.decode(new UnsafeBuffer(truncated), 0, truncated.length)))
            .isExactlyInstanceOf(CodecException.class);
    }

    @Example
    void theRegistryServesUnregisteredTypesAsJsonThroughTheFactory() {
        final CodecRegistry registry = CodecRegistry.defaults().withFallback(JsonCodec.factory(MAPPER));
        final Codec<Trade> codec = registry.codecFor(Trade.class);
        assertThat(codec.name()).isEqualTo("json:Trade");
        assertThat(registry.codecFor(String.class)).as("a registered codec wins").isSameAs(Codecs.UTF8_STRING);
        final Trade trade = new Trade("X", 1, 2, List.of(), Map.of());
        assertThat(codec.decode(new UnsafeBuffer(encode(trade)), 0, encode(trade).length)).isEqualTo(trade);
    }

    @Example
    void genericTypesAreBoundThroughAJavaType() {
        final JsonCodec<List<Trade>> lists = JsonCodec.of(MAPPER,
            MAPPER.getTypeFactory().constructCollectionType(List.class, Trade.class));
        final List<Trade> trades = List.of(new Trade("A", 1, 1, List.of(), Map.of()));
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[200]);
        final int length = lists.encode(trades, buffer, 0, lists.encodedLength(trades));
        assertThat(lists.decode(buffer, 0, length)).isEqualTo(trades);
        assertThat(lists.name()).isEqualTo("json:java.util.List<" + Trade.class.getName() + ">");
        assertThat(lists.decodesToView()).isFalse();
    }

    @Provide
    Arbitrary<Trade> trades() {
        final Arbitrary<String> text = Arbitraries.oneOf(Arbitraries.strings().ascii().ofMaxLength(20),
            Arbitraries.strings().all().ofMaxLength(20)
                .filter(s -> s.equals(new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8))),
            Arbitraries.just(""));
        return Combinators.combine(text, Arbitraries.longs(),
                Arbitraries.doubles().filter(d -> !d.isNaN() && !d.isInfinite()), text.list().ofMaxSize(5),
                Arbitraries.maps(text, Arbitraries.integers()).ofMaxSize(4))
            .as(Trade::new);
    }

    @Provide
    Arbitrary<Integer> kinds() {
        return Arbitraries.integers().between(0, 3);
    }

    @Provide
    Arbitrary<byte[]> hostile() {
        final Arbitrary<byte[]> corrupted = Combinators.combine(trades(), Arbitraries.integers().between(0, 500),
                Arbitraries.bytes())
            .as((trade, at, replacement) -> {
                final byte[] bytes = encode(trade);
                bytes[at % bytes.length] = replacement;
                return bytes;
            });
        return Arbitraries.oneOf(Arbitraries.bytes().array(byte[].class).ofMaxSize(100), corrupted,
            Arbitraries.strings().withChars("{}[]\":,0123456789.-eEtruefalsn ").ofMaxLength(60)
                .map(s -> s.getBytes(StandardCharsets.UTF_8)));
    }

    private static byte[] encode(final Trade trade) {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[TRADES.encodedLength(trade)]);
        TRADES.encode(trade, buffer, 0, buffer.capacity());
        return buffer.byteArray();
    }

    private static MutableDirectBuffer buffer(final int kind, final int capacity) {
        return switch (kind) {
            case 0 -> new UnsafeBuffer(new byte[capacity]);
            case 1 -> new UnsafeBuffer(ByteBuffer.allocateDirect(capacity));
            case 2 -> new UnsafeBuffer(new byte[capacity + 20], 9, capacity);
            default -> new ExpandableArrayBuffer(capacity);
        };
    }

    private static DirectBuffer offHeap(final byte[] bytes) {
        final ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length);
        direct.put(bytes).clear();
        return new UnsafeBuffer(direct);
    }

    private static byte[] bytes(final DirectBuffer buffer, final int offset, final int length) {
        final byte[] bytes = new byte[length];
        buffer.getBytes(offset, bytes, 0, length);
        return bytes;
    }

    @SuppressWarnings("unchecked")
    private static <T> Codec<T> cast(final Codec<?> codec) {
        return (Codec<T>) codec;
    }
}
