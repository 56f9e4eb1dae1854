package io.rdmareactive.perf.codec;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.rdmareactive.codec.Codec;
import io.rdmareactive.codec.Codecs;
import io.rdmareactive.codec.SbeCodec;
import io.rdmareactive.codec.json.JsonCodec;
import io.rdmareactive.perf.codec.sbe.QuoteDecoder;
import io.rdmareactive.perf.codec.sbe.QuoteEncoder;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Encode ({@code encodedLength} then {@code encode}, as the protocol does before and after its claim) and decode of
 * every built-in codec, into and out of an off-heap buffer that stands in for a claimed ring range. Values are made
 * once in {@link #setUp()}, so what {@code -prof gc} shows per operation is what the codec allocates.
 *
 * <p>Sizes: 64-byte {@code byte[]}, {@code ByteBuffer} and {@code DirectBuffer}; a {@code Long} (outside the box
 * cache); 16 longs; a 64-char ASCII string and a 24-char string with 2-, 3- and 4-byte UTF-8 sequences; a 44-byte SBE
 * quote (header and five fields); the same quote as JSON (about 80 bytes).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--add-exports",
    "java.base/jdk.internal.misc=ALL-UNNAMED"})
public class CodecBenchmarks {

    /** The application's view of a quote, for the SBE value codec and JSON. */
    public record Quote(long instrumentId, long bid, long ask, int bidSize, int askSize) {
    }

    private static final int AT = 128;

    private static final SbeCodec<Quote, QuoteEncoder, QuoteDecoder> SBE = SbeCodec.of("sbe-quote",
        QuoteEncoder::new, QuoteDecoder::new,
        (quote, encoder) -> encoder.instrumentId(quote.instrumentId()).bid(quote.bid()).ask(quote.ask())
            .bidSize(quote.bidSize()).askSize(quote.askSize()),
        decoder -> new Quote(decoder.instrumentId(), decoder.bid(), decoder.ask(), decoder.bidSize(),
            decoder.askSize()));

    private static final SbeCodec<QuoteDecoder, QuoteEncoder, QuoteDecoder> SBE_VIEWS = SbeCodec.views(
        "sbe-quote-view", QuoteEncoder::new, QuoteDecoder::new,
        (decoder, encoder) -> encoder.instrumentId(decoder.instrumentId()).bid(decoder.bid()).ask(decoder.ask())
            .bidSize(decoder.bidSize()).askSize(decoder.askSize()));

    private static final JsonCodec<Quote> JSON = JsonCodec.of(new ObjectMapper(), Quote.class);

    private final Codec<DirectBuffer> directBufferViews = Codecs.reusableDirectBufferView();

    private UnsafeBuffer ring;
    private byte[] bytes;
    private ByteBuffer byteBuffer;
    private DirectBuffer directBuffer;
    private Long boxedLong;
    private long[] longs;
    private String ascii;
    private String utf8;
    private Quote quote;

    private int bytesLength;
    private int byteBufferLength;
    private int directBufferLength;
    private int longLength;
    private int longsLength;
    private int asciiLength;
    private int utf8Length;
    private int sbeLength;
    private int jsonLength;

    private UnsafeBuffer bytesIn;
    private UnsafeBuffer byteBufferIn;
    private UnsafeBuffer directBufferIn;
    private UnsafeBuffer longIn;
    private UnsafeBuffer longsIn;
    private UnsafeBuffer asciiIn;
    private UnsafeBuffer utf8In;
    private UnsafeBuffer sbeIn;
    private UnsafeBuffer jsonIn;

    /** Makes the values, and one encoding of each to decode from. */
    @Setup(Level.Trial)
    public void setUp() {
        ring = offHeap(64 * 1024);
        bytes = new byte[64];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (i * 31);
        }
        byteBuffer = ByteBuffer.allocateDirect(64).put(bytes).flip();
        directBuffer = new UnsafeBuffer(bytes.clone());
        boxedLong = 0x0123_4567_89AB_CDEFL;
        longs = new long[16];
        for (int i = 0; i < longs.length; i++) {
            longs[i] = i * 0x1234_5678_9ABCL;
        }
        ascii = "ORDER-0001:BUY:100@99.50;ACCOUNT=ABC123;VENUE=XLON;TIF=DAY;X=1";
        ascii = (ascii + "0123456789").substring(0, 64);
        utf8 = "Grüße, 世界 😀 Zürich €5";
        quote = new Quote(4_711L, 99_500L, 99_510L, 300, 200);

        bytesIn = encoded(Codecs.BYTE_ARRAY, bytes);
        byteBufferIn = encoded(Codecs.BYTE_BUFFER, byteBuffer);
        directBufferIn = encoded(Codecs.DIRECT_BUFFER, directBuffer);
        longIn = encoded(Codecs.LONG, boxedLong);
        longsIn = encoded(Codecs.LONG_ARRAY, longs);
        asciiIn = encoded(Codecs.UTF8_STRING, ascii);
        utf8In = encoded(Codecs.UTF8_STRING, utf8);
        sbeIn = encoded(SBE, quote);
        jsonIn = encoded(JSON, quote);
        bytesLength = bytesIn.capacity();
        byteBufferLength = byteBufferIn.capacity();
        directBufferLength = directBufferIn.capacity();
        longLength = longIn.capacity();
        longsLength = longsIn.capacity();
        asciiLength = asciiIn.capacity();
        utf8Length = utf8In.capacity();
        sbeLength = sbeIn.capacity();
        jsonLength = jsonIn.capacity();
    }

    // ------------------------------------------------------------------------------------------------ bytes

    @Benchmark
    public int byteArrayEncode() {
        return encode(Codecs.BYTE_ARRAY, bytes);
    }

    @Benchmark
    public byte[] byteArrayDecode() {
        return Codecs.BYTE_ARRAY.decode(bytesIn, 0, bytesLength);
    }

    @Benchmark
    public int byteBufferEncode() {
        return encode(Codecs.BYTE_BUFFER, byteBuffer);
    }

    @Benchmark
    public ByteBuffer byteBufferDecode() {
        return Codecs.BYTE_BUFFER.decode(byteBufferIn, 0, byteBufferLength);
    }

    @Benchmark
    public int directBufferEncode() {
        return encode(Codecs.DIRECT_BUFFER, directBuffer);
    }

    /** The zero-copy receive: a reused view over the range. */
    @Benchmark
    public long directBufferViewDecode() {
        return directBufferViews.decode(directBufferIn, 0, directBufferLength).getLong(8);
    }

    // ------------------------------------------------------------------------------------------------ primitives

    @Benchmark
    public int longEncode() {
        return encode(Codecs.LONG, boxedLong);
    }

    /** Returns the box, as a subscriber receives it: one 16-byte {@code Long} (outside the box cache). */
    @Benchmark
    public Long longDecode() {
        return Codecs.LONG.decode(longIn, 0, longLength);
    }

    @Benchmark
    public int longArrayEncode() {
        return encode(Codecs.LONG_ARRAY, longs);
    }

    @Benchmark
    public long[] longArrayDecode() {
        return Codecs.LONG_ARRAY.decode(longsIn, 0, longsLength);
    }

    // ------------------------------------------------------------------------------------------------ strings

    @Benchmark
    public int stringAsciiEncode() {
        return encode(Codecs.UTF8_STRING, ascii);
    }

    @Benchmark
    public String stringAsciiDecode() {
        return Codecs.UTF8_STRING.decode(asciiIn, 0, asciiLength);
    }

    @Benchmark
    public int stringUtf8Encode() {
        return encode(Codecs.UTF8_STRING, utf8);
    }

    @Benchmark
    public String stringUtf8Decode() {
        return Codecs.UTF8_STRING.decode(utf8In, 0, utf8Length);
    }

    // ------------------------------------------------------------------------------------------------ SBE

    @Benchmark
    public int sbeEncode() {
        return encode(SBE, quote);
    }

    /** The zero-copy receive: this thread's decoder wrapped over the range, its fields read in place. */
    @Benchmark
    public long sbeViewDecode() {
        final QuoteDecoder decoder = SBE_VIEWS.decode(sbeIn, 0, sbeLength);
        return decoder.instrumentId() + decoder.bid() + decoder.ask() + decoder.bidSize() + decoder.askSize();
    }

    /** Decoding into the application's record: the record is the one allocation. */
    @Benchmark
    public Quote sbeValueDecode() {
        return SBE.decode(sbeIn, 0, sbeLength);
    }

    // ------------------------------------------------------------------------------------------------ JSON

    @Benchmark
    public int jsonEncode() {
        return encode(JSON, quote);
    }

    @Benchmark
    public Quote jsonDecode() {
        return JSON.decode(jsonIn, 0, jsonLength);
    }

    // ------------------------------------------------------------------------------------------------ helpers

    /** What the protocol does per message: the exact length first, then the encode into the claimed range. */
    private <T> int encode(final Codec<T> codec, final T value) {
        final int length = codec.encodedLength(value);
        return codec.encode(value, ring, AT, length);
    }

    private static <T> UnsafeBuffer encoded(final Codec<T> codec, final T value) {
        final UnsafeBuffer buffer = offHeap(codec.encodedLength(value));
        codec.encode(value, buffer, 0, buffer.capacity());
        return buffer;
    }

    private static UnsafeBuffer offHeap(final int capacity) {
        return new UnsafeBuffer(ByteBuffer.allocateDirect(capacity));
    }
}
