package io.rdmareactive.internal.protocol;

import static io.rdmareactive.internal.protocol.Bytes.assertUntouchedOutside;
import static io.rdmareactive.internal.protocol.Bytes.filled;
import static io.rdmareactive.internal.protocol.Bytes.le;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import net.jqwik.api.ForAll;
import net.jqwik.api.Example;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;
import org.agrona.concurrent.UnsafeBuffer;

class ErrorFrameFlyweightTest {

    private static final int MAX_STREAMS = 8;

    @Property(tries = 500)
    void roundTripsAtAnyOffsetAndCutsLongMessagesOnACharacterBoundary(
        @ForAll @IntRange(min = 0, max = 100) final int offset,
        @ForAll @IntRange(min = 0, max = MAX_STREAMS - 1) final int streamId,
        @ForAll final int errorCode,
        @ForAll @StringLength(max = 1500) final String message,
        @ForAll final byte fill) {
        final byte[] bytes = filled(offset + ErrorFrameFlyweight.MAX_LENGTH + 16, fill);
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);

        new ErrorFrameFlyweight().wrap(buffer, offset).write(streamId, errorCode, message);

        final byte[] expected = utf8Prefix(message, ErrorFrameFlyweight.MAX_MESSAGE_LENGTH);
        final ErrorFrameFlyweight read = new ErrorFrameFlyweight().wrap(buffer, offset);
        assertThat(read.frameLength()).isEqualTo(18 + expected.length);
        assertThat(read.streamId()).isEqualTo(streamId);
        assertThat(read.errorCode()).isEqualTo(errorCode);
        assertThat(read.messageLength()).isEqualTo(expected.length);
        assertThat(Arrays.copyOfRange(bytes, offset + 18, offset + 18 + expected.length)).isEqualTo(expected);
        assertThat(read.message()).isEqualTo(new String(expected, StandardCharsets.UTF_8));
        assertThat(le(bytes).getInt(offset)).isEqualTo(18 + expected.length);
        assertThat(le(bytes).getShort(offset + 4)).isEqualTo(FrameHeaderFlyweight.ERROR);
        assertThat(bytes[offset + 6]).isZero();
        assertThat(bytes[offset + 7]).isZero();
        assertThat(le(bytes).getInt(offset + 8)).isEqualTo(streamId);
        assertThat(le(bytes).getInt(offset + 12)).isEqualTo(errorCode);
        assertThat(le(bytes).getShort(offset + 16) & 0xFFFF).isEqualTo(expected.length);
        assertUntouchedOutside(bytes, offset, offset + 18 + expected.length, fill);
        assertThat(ErrorFrameFlyweight.check(buffer, offset, read.frameLength(), MAX_STREAMS))
            .isEqualTo(FrameCheck.OK);
    }

    @Property(tries = 500)
    void cutsAtAGivenMaximumAndTellsTheLengthBeforeWriting(
        @ForAll @IntRange(min = 0, max = ErrorFrameFlyweight.MAX_MESSAGE_LENGTH) final int max,
        @ForAll @StringLength(max = 1500) final String message,
        @ForAll final byte fill) {
        final byte[] bytes = filled(ErrorFrameFlyweight.MAX_LENGTH + 16, fill);
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        final byte[] expected = utf8Prefix(message, max);

        assertThat(ErrorFrameFlyweight.encodedLength(message, max)).isEqualTo(expected.length);
        final ErrorFrameFlyweight frame = new ErrorFrameFlyweight().wrap(buffer, 0).write(3, 4, message, max);

        assertThat(frame.frameLength()).isEqualTo(ErrorFrameFlyweight.frameLength(expected.length));
        assertThat(frame.message()).isEqualTo(new String(expected, StandardCharsets.UTF_8));
        assertUntouchedOutside(bytes, 0, ErrorFrameFlyweight.frameLength(expected.length), fill);
        assertThat(ErrorFrameFlyweight.check(buffer, 0, frame.frameLength(), MAX_STREAMS)).isEqualTo(FrameCheck.OK);
        assertThat(ErrorFrameFlyweight.encodedLength(null, max)).isZero();
    }

    /** What Java's own encoder makes of the longest prefix of whole code points that fits: the expected bytes. */
    private static byte[] utf8Prefix(final String message, final int limit) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        message.codePoints().takeWhile(codePoint -> {
            final byte[] encoded = new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8);
            if (out.size() + encoded.length > limit) {
                return false;
            }
            out.writeBytes(encoded);
            return true;
        }).count();
        return out.toByteArray();
    }

    @Example
    void encodesEveryWidthAndReplacesLoneSurrogates() {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[ErrorFrameFlyweight.MAX_LENGTH]);
        final ErrorFrameFlyweight frame = new ErrorFrameFlyweight().wrap(buffer, 0);
        frame.write(1, 2, "a\u00e9\u20ac\uD83D\uDE00");
        assertThat(frame.messageLength()).isEqualTo(1 + 2 + 3 + 4);
        assertThat(frame.message()).isEqualTo("a\u00e9\u20ac\uD83D\uDE00");
        frame.write(1, 2, "x\uD800y\uDC00");
        assertThat(frame.message()).isEqualTo("x?y?");
        frame.write(1, 2, null);
        assertThat(frame.messageLength()).isZero();
        assertThat(frame.message()).isEmpty();
        assertThat(frame.frameLength()).isEqualTo(18);
    }

    @Example
    void cutsAtTheLimitWithoutSplittingACharacter() {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[ErrorFrameFlyweight.MAX_LENGTH]);
        final ErrorFrameFlyweight frame = new ErrorFrameFlyweight().wrap(buffer, 0);
        frame.write(0, 0, "a".repeat(1023) + "\u00e9");
        assertThat(frame.messageLength()).isEqualTo(1023);
        frame.write(0, 0, "a".repeat(1022) + "\u00e9" + "b");
        assertThat(frame.messageLength()).isEqualTo(1024);
        frame.write(0, 0, "a".repeat(1021) + "\uD83D\uDE00");
        assertThat(frame.messageLength()).isEqualTo(1021);
        frame.write(0, 0, "a".repeat(5000));
        assertThat(frame.messageLength()).isEqualTo(1024);
        assertThat(frame.frameLength()).isEqualTo(ErrorFrameFlyweight.MAX_LENGTH);
    }

    @Example
    void readingClampsTheMessageToTheFrameAndTheBuffer() {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        final ErrorFrameFlyweight frame = new ErrorFrameFlyweight().wrap(buffer, 0).write(0, 0, "0123456789");
        buffer.putShort(ErrorFrameFlyweight.MESSAGE_LENGTH_OFFSET, (short) 40, FrameHeaderFlyweight.BYTE_ORDER);
        assertThat(frame.messageLength()).as("prefix past the frame length").isEqualTo(10);
        assertThat(frame.message()).isEqualTo("0123456789");
        buffer.putShort(ErrorFrameFlyweight.MESSAGE_LENGTH_OFFSET, (short) -1, FrameHeaderFlyweight.BYTE_ORDER);
        buffer.putInt(0, 5000, FrameHeaderFlyweight.BYTE_ORDER);
        assertThat(frame.messageLength()).as("prefix 65535, frame 5000, buffer 64").isEqualTo(64 - 18);
        buffer.putInt(0, 3, FrameHeaderFlyweight.BYTE_ORDER);
        assertThat(frame.messageLength()).as("frame shorter than the body").isZero();
        assertThat(frame.message()).isEmpty();
        buffer.putInt(0, Integer.MIN_VALUE, FrameHeaderFlyweight.BYTE_ORDER);
        assertThat(frame.messageLength()).isZero();
        buffer.putInt(0, 2000, FrameHeaderFlyweight.BYTE_ORDER);
        final UnsafeBuffer large = new UnsafeBuffer(new byte[4096]);
        large.putBytes(0, buffer, 0, 64);
        assertThat(new ErrorFrameFlyweight().wrap(large, 0).messageLength()).as("never above 1024").isEqualTo(1024);
    }

    @Property(tries = 300)
    void readingAnyBytesStaysInsideTheFrameAndTheBuffer(
        @ForAll @Size(min = 18, max = 300) final byte[] bytes) {
        final ErrorFrameFlyweight frame = new ErrorFrameFlyweight().wrap(new GuardedBuffer(bytes, 0, bytes.length), 0);
        final int frameLength = le(bytes).getInt(0);

        final int messageLength = frame.messageLength();

        assertThat(messageLength).isBetween(0, Math.min(1024, bytes.length - 18));
        assertThat((long) messageLength).isLessThanOrEqualTo(Math.max(0, (long) frameLength - 18));
        assertThat(frame.message()).as("decodes whatever the bytes").isNotNull();
    }

    @Example
    void malformedUtf8DecodesWithoutThrowing() {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        final ErrorFrameFlyweight frame = new ErrorFrameFlyweight().wrap(buffer, 0).write(0, 0, "abcd");
        buffer.putByte(18, (byte) 0xC3);
        buffer.putByte(20, (byte) 0xFF);
        assertThat(frame.message()).hasSize(4).contains("\uFFFD");
    }

    @Example
    void checks() {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[ErrorFrameFlyweight.MAX_LENGTH + 16]);
        final ErrorFrameFlyweight frame = new ErrorFrameFlyweight().wrap(buffer, 8).write(3, -7, "boom");
        assertThat(ErrorFrameFlyweight.check(buffer, 8, 22, MAX_STREAMS)).isEqualTo(FrameCheck.OK);
        assertThat(ErrorFrameFlyweight.check(buffer, 8, 21, MAX_STREAMS)).isEqualTo(FrameCheck.TOO_SHORT);
        assertThat(ErrorFrameFlyweight.check(buffer, 8, 23, MAX_STREAMS)).isEqualTo(FrameCheck.TOO_LONG);
        assertThat(ErrorFrameFlyweight.check(buffer, 8, 17, MAX_STREAMS)).isEqualTo(FrameCheck.TOO_SHORT);
        assertThat(ErrorFrameFlyweight.check(buffer, 8, 1043, MAX_STREAMS)).isEqualTo(FrameCheck.TOO_LONG);
        assertThat(ErrorFrameFlyweight.check(buffer, -8, 22, MAX_STREAMS)).isEqualTo(FrameCheck.OUT_OF_RANGE);
        assertThat(ErrorFrameFlyweight.check(buffer, 1040, 22, MAX_STREAMS)).isEqualTo(FrameCheck.OUT_OF_RANGE);
        buffer.putShort(8 + 16, (short) 1025, FrameHeaderFlyweight.BYTE_ORDER);
        assertThat(ErrorFrameFlyweight.check(buffer, 8, 18 + 1025, MAX_STREAMS))
            .isEqualTo(FrameCheck.TOO_LONG);
        assertThat(ErrorFrameFlyweight.check(buffer, 8, 18 + 1024, MAX_STREAMS))
            .isEqualTo(FrameCheck.BAD_MESSAGE_LENGTH);
        buffer.putShort(8 + 16, (short) 1024, FrameHeaderFlyweight.BYTE_ORDER);
        assertThat(ErrorFrameFlyweight.check(buffer, 8, 18 + 1024, MAX_STREAMS)).isEqualTo(FrameCheck.OK);
        frame.write(MAX_STREAMS, 0, "");
        assertThat(ErrorFrameFlyweight.check(buffer, 8, 18, MAX_STREAMS)).isEqualTo(FrameCheck.BAD_STREAM_ID);
    }
}
