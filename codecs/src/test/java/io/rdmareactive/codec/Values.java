package io.rdmareactive.codec;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/** Generators for codec values: empty, small, large (up to 1 MiB), and every shape of buffer and string. */
final class Values {

    static final int MIB = 1 << 20;

    private Values() {
    }

    /** Sizes up to {@code max}: mostly small, some medium, a few large; jqwik adds 0 and {@code max} as edges. */
    static Arbitrary<Integer> sizes(final int max) {
        final int small = Math.min(64, max);
        final int medium = Math.min(64 * 1024, max);
        return Arbitraries.frequencyOf(
            Tuple.of(6, Arbitraries.integers().between(0, small)),
            Tuple.of(3, Arbitraries.integers().between(small, medium)),
            Tuple.of(1, Arbitraries.integers().between(medium, max)));
    }

    /** Random content from a seed: cheap even at 1 MiB, and shrinks by size. */
    static Arbitrary<byte[]> bytes(final int maxSize) {
        return Combinators.combine(sizes(maxSize), Arbitraries.longs()).as(TestBuffers::randomBytes);
    }

    /**
     * {@code content} as the remaining bytes of a ByteBuffer of one of several shapes: heap with position and
     * limit inside a padded array, direct, read-only heap, read-only direct, or a slice with a non-zero array
     * offset. The padding is junk, so encoding the wrong bytes shows.
     */
    static ByteBuffer byteBuffer(final byte[] content, final int shape, final int pad) {
        final byte[] padded = new byte[pad + content.length + pad];
        Arrays.fill(padded, (byte) 0x5A);
        System.arraycopy(content, 0, padded, pad, content.length);
        final ByteBuffer heap = ByteBuffer.wrap(padded, pad, content.length);
        final ByteBuffer direct = ByteBuffer.allocateDirect(padded.length).put(padded).position(pad)
            .limit(pad + content.length);
        return switch (Math.floorMod(shape, 5)) {
            case 0 -> heap;
            case 1 -> direct;
            case 2 -> heap.asReadOnlyBuffer();
            case 3 -> direct.asReadOnlyBuffer();
            default -> heap.slice(); // arrayOffset == pad, position 0
        };
    }

    static Arbitrary<ByteBuffer> byteBuffers(final int maxSize) {
        return Combinators.combine(bytes(maxSize), Arbitraries.integers().between(0, 4),
            Arbitraries.integers().between(0, 9)).as(Values::byteBuffer);
    }

    /** {@code content} as a whole DirectBuffer: over a byte[], off-heap, or over the middle of a larger array. */
    static DirectBuffer directBuffer(final byte[] content, final int shape) {
        return switch (Math.floorMod(shape, 3)) {
            case 0 -> new UnsafeBuffer(content);
            case 1 -> {
                final ByteBuffer direct = ByteBuffer.allocateDirect(content.length);
                direct.put(content).clear();
                yield new UnsafeBuffer(direct);
            }
            default -> {
                final byte[] larger = new byte[content.length + 13];
                Arrays.fill(larger, (byte) 0x5A);
                System.arraycopy(content, 0, larger, 7, content.length);
                yield new UnsafeBuffer(larger, 7, content.length);
            }
        };
    }

    static Arbitrary<DirectBuffer> directBuffers(final int maxSize) {
        return Combinators.combine(bytes(maxSize), Arbitraries.integers().between(0, 2)).as(Values::directBuffer);
    }

    /** Code points of every UTF-8 length, with emoji well represented; never a surrogate. */
    static Arbitrary<Integer> codePoints() {
        return Arbitraries.frequencyOf(
            Tuple.of(4, Arbitraries.integers().between(0, 0x7F)),
            Tuple.of(2, Arbitraries.integers().between(0x80, 0x7FF)),
            Tuple.of(2, Arbitraries.integers().between(0x800, 0xFFFF)
                .filter(cp -> cp < Character.MIN_SURROGATE || cp > Character.MAX_SURROGATE)),
            Tuple.of(2, Arbitraries.integers().between(0x10000, 0x10FFFF)),
            Tuple.of(2, Arbitraries.integers().between(0x1F300, 0x1FAFF)));
    }

    static Arbitrary<String> wellFormedStrings(final int maxCodePoints) {
        return codePoints().list().ofMaxSize(maxCodePoints).map(Values::fromCodePoints);
    }

    /** Well-formed strings with lone surrogates (high or low) inserted at random places. */
    static Arbitrary<String> stringsWithUnpairedSurrogates() {
        return Combinators.combine(
                wellFormedStrings(60),
                Arbitraries.chars().range(Character.MIN_SURROGATE, Character.MAX_SURROGATE).list().ofMinSize(1)
                    .ofMaxSize(4),
                Arbitraries.longs())
            .as((string, surrogates, seed) -> {
                final StringBuilder builder = new StringBuilder(string);
                final Random random = new Random(seed);
                for (final char surrogate : surrogates) {
                    builder.insert(random.nextInt(builder.length() + 1), surrogate);
                }
                return builder.toString();
            });
    }

    /** Long strings (64 Ki to 512 Ki chars, so up to about 1.5 MiB of UTF-8), ASCII-heavy or mixed. */
    static Arbitrary<String> largeStrings() {
        return Combinators.combine(Arbitraries.integers().between(1 << 16, 1 << 19), Arbitraries.longs(),
            Arbitraries.of(true, false)).as(Values::largeString);
    }

    private static String largeString(final int chars, final long seed, final boolean asciiOnly) {
        final Random random = new Random(seed);
        final StringBuilder builder = new StringBuilder(chars + 1);
        while (builder.length() < chars) {
            final int kind = asciiOnly ? 0 : random.nextInt(8);
            builder.appendCodePoint(switch (kind) {
                case 0, 1, 2, 3 -> random.nextInt(0x80);
                case 4 -> 0x80 + random.nextInt(0x800 - 0x80);
                case 5 -> 0xE000 + random.nextInt(0x10000 - 0xE000);
                case 6 -> 0x1F300 + random.nextInt(0x1FB00 - 0x1F300);
                default -> 0x10000 + random.nextInt(0x110000 - 0x10000);
            });
        }
        return builder.toString();
    }

    /** Every kind of string: ASCII, all UTF-8 lengths, emoji, unpaired surrogates, any char at all, large. */
    static Arbitrary<String> strings() {
        return Arbitraries.frequencyOf(
            Tuple.of(3, Arbitraries.strings().ascii().ofMaxLength(200)),
            Tuple.of(5, wellFormedStrings(200)),
            Tuple.of(2, stringsWithUnpairedSurrogates()),
            Tuple.of(2, Arbitraries.strings().all().ofMaxLength(100)),
            Tuple.of(1, largeStrings()));
    }

    static String fromCodePoints(final List<Integer> codePoints) {
        final StringBuilder builder = new StringBuilder(codePoints.size() * 2);
        codePoints.forEach(builder::appendCodePoint);
        return builder.toString();
    }

    /** Whether the string has no unpaired surrogate, that is, whether its UTF-8 round-trips. */
    static boolean isWellFormed(final String string) {
        for (int i = 0; i < string.length(); i++) {
            final char c = string.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < string.length()
                && Character.isLowSurrogate(string.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    static byte[] utf8(final String string) {
        return string.getBytes(StandardCharsets.UTF_8);
    }
}
