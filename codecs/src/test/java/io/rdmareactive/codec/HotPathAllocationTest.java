package io.rdmareactive.codec;

import io.rdmareactive.testsupport.AllocationMeter;
import java.nio.ByteBuffer;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * The send path allocates nothing per message: encoding a {@code byte[]}, a {@code ByteBuffer}, a
 * {@code DirectBuffer} or a string (ASCII or not), and decoding through a reusable view. Measured with the
 * thread's allocation counter, which counts bytes, not time: a single allocation per call would add at least
 * 16 bytes per call, so the bound below (well under one byte per call) tolerates only one-off noise.
 * (Allocation is counted, never time.)
 */
class HotPathAllocationTest {

    private static final int WARM_UP = 20_000;
    private static final int CALLS = 10_000;
    private static final int ROUNDS = 5;

    private final UnsafeBuffer ring = new UnsafeBuffer(ByteBuffer.allocateDirect(4096));
    private final byte[] bytes = new byte[256];
    private final ByteBuffer byteBuffer = ByteBuffer.allocateDirect(256);
    private final DirectBuffer directBuffer = new UnsafeBuffer(new byte[256]);
    private final String ascii = "order-12345:BUY:100@99.5;" + "x".repeat(100);
    private final String unicode = "Grüße, 世界 😀 and \uD800 unpaired";
    private int sink;

    @Test
    void encodingAByteArrayAllocatesNothing() {
        assertNoAllocation(() -> sink += Codecs.BYTE_ARRAY.encode(bytes, ring, 64,
            Codecs.BYTE_ARRAY.encodedLength(bytes)));
    }

    @Test
    void encodingAByteBufferAllocatesNothing() {
        assertNoAllocation(() -> sink += Codecs.BYTE_BUFFER.encode(byteBuffer, ring, 64,
            Codecs.BYTE_BUFFER.encodedLength(byteBuffer)));
    }

    @Test
    void encodingADirectBufferAllocatesNothing() {
        assertNoAllocation(() -> sink += Codecs.DIRECT_BUFFER.encode(directBuffer, ring, 64,
            Codecs.DIRECT_BUFFER.encodedLength(directBuffer)));
    }

    @Test
    void encodingAnAsciiStringAllocatesNothing() {
        assertNoAllocation(() -> sink += Codecs.UTF8_STRING.encode(ascii, ring, 64,
            Codecs.UTF8_STRING.encodedLength(ascii)));
    }

    @Test
    void encodingANonAsciiStringAllocatesNothing() {
        assertNoAllocation(() -> sink += Codecs.UTF8_STRING.encode(unicode, ring, 64,
            Codecs.UTF8_STRING.encodedLength(unicode)));
    }

    @Test
    void encodingPrimitivesAndPrimitiveArraysAllocatesNothing() {
        final Long boxed = 1L << 40;
        final long[] longs = new long[32];
        final double[] doubles = new double[32];
        assertNoAllocation(() -> {
            sink += Codecs.LONG.encode(boxed, ring, 64, Codecs.LONG.encodedLength(boxed));
            sink += Codecs.LONG_ARRAY.encode(longs, ring, 64, Codecs.LONG_ARRAY.encodedLength(longs));
            sink += Codecs.DOUBLE_ARRAY.encode(doubles, ring, 64, Codecs.DOUBLE_ARRAY.encodedLength(doubles));
        });
    }

    @Test
    void encodingAnSbeMessageAndDecodingItAsAViewAllocatesNothing() {
        final SbeSamples.Quote quote = new SbeSamples.Quote(1, 2, 3, 4, 5, 6);
        final int length = SbeSamples.QUOTES.encodedLength(quote);
        assertNoAllocation(() -> sink += SbeSamples.QUOTES.encode(quote, ring, 64,
            SbeSamples.QUOTES.encodedLength(quote)));
        assertNoAllocation(() -> sink += (int) SbeSamples.QUOTE_VIEWS.decode(ring, 64, length).bid());
    }

    @Test
    void decodingThroughAReusableViewAllocatesNothing() {
        final var codec = Codecs.reusableDirectBufferView();
        assertNoAllocation(() -> sink += codec.decode(ring, 64, 128).capacity());
    }

    /** The least of a few metered runs is judged (see {@link AllocationMeter#leastAllocatedBy}). */
    private void assertNoAllocation(final Runnable call) {
        final long least = AllocationMeter.currentThread().leastAllocatedBy(WARM_UP, CALLS, ROUNDS, call);
        AllocationMeter.assertBelow(least, CALLS / 2, CALLS, "calls (the least of up to " + ROUNDS + " runs)");
    }
}
