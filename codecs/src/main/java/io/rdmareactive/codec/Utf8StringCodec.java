package io.rdmareactive.codec;

import java.nio.charset.StandardCharsets;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * {@link String} as UTF-8 (RFC 3629), with no length prefix: the frame carries the length.
 *
 * <h2>Encode</h2>
 * The bytes are exactly those of {@code value.getBytes(StandardCharsets.UTF_8)}, written without that call's
 * allocation. In particular an <b>unpaired surrogate</b> (a high surrogate not followed by a low one, or a low
 * surrogate not preceded by a high one), which has no UTF-8 encoding, is written as {@code '?'} (one byte), as the
 * JDK does; such a string therefore does not round-trip, every other string does. {@link #encodedLength} is exact
 * for every string: 1 byte per char below U+0080, 2 below U+0800, 4 per surrogate pair, 1 per unpaired surrogate,
 * 3 otherwise. Encoding a string that is all ASCII takes the fast path: up to 512 chars, the chars
 * are copied into a per-thread scratch array ({@code String.getChars}, an intrinsic), checked with one OR over all of
 * them, narrowed to bytes and written with one bulk copy; longer strings are checked and written eight chars at a
 * time. Other strings take one more scan to size them and a per-byte write. Neither allocates.
 *
 * <h2>Decode</h2>
 * Strict: the bytes must be well-formed UTF-8 as RFC 3629 and Unicode table 3-7 define it, otherwise a
 * {@link CodecException} names the first bad byte. Rejected are stray continuation bytes, truncated sequences,
 * overlong forms (including {@code C0 80}), encoded surrogates ({@code ED A0..BF}), code points above U+10FFFF and
 * the bytes {@code F5..FF}. Rejecting rather than replacing with U+FFFD is the safer choice for bytes that come from
 * a peer: a corrupted or hostile frame is reported instead of turning silently into a different string (and two
 * different byte strings never decode to the same value). The range is copied once before it is validated, so a
 * peer that rewrites it meanwhile cannot slip unvalidated bytes past; the copy goes into a scratch array kept per
 * thread (for ranges up to 64 KiB), so the only allocation is the {@code String} itself; the result owns its
 * characters.
 *
 * <p>Thread safe; the only state is each thread's scratch array.
 */
final class Utf8StringCodec implements Codec<String> {

    static final String NAME = "utf8-string";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int encodedLength(final String value) {
        final int chars = value.length();
        if (chars <= SHORT_STRING) {
            final char[] copy = SCRATCH.get().chars;
            value.getChars(0, chars, copy, 0);
            if (allAscii(copy, chars)) {
                return chars;
            }
        }
        final int ascii = asciiPrefixLength(value);
        if (ascii == value.length()) {
            return ascii;
        }
        return checkedLength(encodedLengthFrom(value, ascii));
    }

    @Override
    public int encode(final String value, final MutableDirectBuffer buffer, final int offset, final int maxLength) {
        CodecRanges.checkEncodeRange(NAME, buffer, offset, maxLength);
        final int chars = value.length();
        if (chars <= SHORT_STRING) {
            // the fast path for short strings: copy the chars out (an intrinsic), check them all at once, narrow them
            // to bytes and write those with one bulk copy; each step a simple loop the JIT vectorizes
            final Scratch scratch = SCRATCH.get();
            final char[] copy = scratch.chars;
            value.getChars(0, chars, copy, 0);
            if (allAscii(copy, chars)) {
                if (chars > maxLength) {
                    throw CodecRanges.doesNotFit(NAME, chars, offset, maxLength);
                }
                final byte[] narrow = scratch.bytes;
                for (int i = 0; i < chars; i++) {
                    narrow[i] = (byte) copy[i];
                }
                buffer.putBytes(offset, narrow, 0, chars);
                return chars;
            }
        }
        final int ascii = asciiPrefixLength(value);
        if (ascii == chars) {
            if (chars > maxLength) {
                throw CodecRanges.doesNotFit(NAME, chars, offset, maxLength);
            }
            putAscii(value, chars, buffer, offset);
            return chars;
        }

        final long required = encodedLengthFrom(value, ascii);
        if (required > maxLength) {
            throw CodecRanges.doesNotFit(NAME, required, offset, maxLength);
        }
        if (ascii > 0) {
            putAscii(value, ascii, buffer, offset);
        }
        int index = offset + ascii;
        for (int i = ascii; i < chars; i++) {
            final char c = value.charAt(i);
            if (c < 0x80) {
                buffer.putByte(index++, (byte) c);
            } else if (c < 0x800) {
                buffer.putByte(index++, (byte) (0xC0 | (c >>> 6)));
                buffer.putByte(index++, (byte) (0x80 | (c & 0x3F)));
            } else if (!Character.isSurrogate(c)) {
                buffer.putByte(index++, (byte) (0xE0 | (c >>> 12)));
                buffer.putByte(index++, (byte) (0x80 | ((c >>> 6) & 0x3F)));
                buffer.putByte(index++, (byte) (0x80 | (c & 0x3F)));
            } else if (Character.isHighSurrogate(c) && i + 1 < chars && Character.isLowSurrogate(value.charAt(i + 1))) {
                final int codePoint = Character.toCodePoint(c, value.charAt(++i));
                buffer.putByte(index++, (byte) (0xF0 | (codePoint >>> 18)));
                buffer.putByte(index++, (byte) (0x80 | ((codePoint >>> 12) & 0x3F)));
                buffer.putByte(index++, (byte) (0x80 | ((codePoint >>> 6) & 0x3F)));
                buffer.putByte(index++, (byte) (0x80 | (codePoint & 0x3F)));
            } else {
                buffer.putByte(index++, (byte) '?'); // unpaired surrogate, as String.getBytes(UTF_8) writes it
            }
        }
        return index - offset;
    }

    @Override
    public String decode(final DirectBuffer buffer, final int offset, final int length) {
        CodecRanges.checkDecodeRange(NAME, buffer, offset, length);
        if (length == 0) {
            return "";
        }
        // copy first, into this thread's scratch array: validate exactly the bytes that get decoded
        final byte[] bytes = SCRATCH.get().decodeInto(length);
        buffer.getBytes(offset, bytes, 0, length);
        final int bad = firstMalformed(bytes, length);
        if (bad >= 0) {
            throw malformed(bytes, length, bad, offset, length);
        }
        return new String(bytes, 0, length, StandardCharsets.UTF_8);
    }

    @Override
    public boolean decodesToView() {
        return false;
    }

    @Override
    public String toString() {
        return NAME;
    }

    /** Decode scratch arrays up to this size are kept per thread; larger ranges get an array of their own. */
    static final int MAX_RETAINED_SCRATCH = 64 * 1024;

    /** Strings up to this many chars take the encode fast path through the per-thread scratch arrays. */
    static final int SHORT_STRING = 512;

    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    /** One thread's scratch arrays: chars and bytes for the short-string encode path, bytes to decode from. */
    private static final class Scratch {
        final char[] chars = new char[SHORT_STRING];
        final byte[] bytes = new byte[SHORT_STRING];
        private byte[] decode = new byte[256];

        /** An array of at least {@code length} bytes to copy a range into: this thread's, or a new one if large. */
        byte[] decodeInto(final int length) {
            if (length > MAX_RETAINED_SCRATCH) {
                return new byte[length];
            }
            if (decode.length < length) {
                decode = new byte[Math.max(length, Math.min(MAX_RETAINED_SCRATCH, decode.length * 2))];
            }
            return decode;
        }
    }

    /** Whether the first {@code count} chars are all ASCII: one OR over all of them, no branch per char. */
    private static boolean allAscii(final char[] chars, final int count) {
        int any = 0;
        for (int i = 0; i < count; i++) {
            any |= chars[i];
        }
        return any < 0x80;
    }

    /**
     * How many chars at the start of {@code value} are ASCII. Eight at a time (one branch per eight chars, on the OR of
     * them), then one at a time for the rest.
     */
    private static int asciiPrefixLength(final String value) {
        final int chars = value.length();
        int i = 0;
        while (i + 8 <= chars && (value.charAt(i) | value.charAt(i + 1) | value.charAt(i + 2) | value.charAt(i + 3)
            | value.charAt(i + 4) | value.charAt(i + 5) | value.charAt(i + 6) | value.charAt(i + 7)) < 0x80) {
            i += 8;
        }
        while (i < chars && value.charAt(i) < 0x80) {
            i++;
        }
        return i;
    }

    /**
     * Writes the first {@code count} chars of {@code value}, all ASCII, as one byte each from {@code index} on: eight
     * at a time as one little-endian long (one bounds check per eight bytes), then one at a time.
     */
    private static void putAscii(final String value, final int count, final MutableDirectBuffer buffer,
                                 final int index) {
        if (buffer.isExpandable()) {
            buffer.checkLimit(index + count); // grow once, to the whole range, as a bulk put would
        }
        int i = 0;
        for (; i + 8 <= count; i += 8) {
            final long eight = value.charAt(i) | (long) value.charAt(i + 1) << 8 | (long) value.charAt(i + 2) << 16
                | (long) value.charAt(i + 3) << 24 | (long) value.charAt(i + 4) << 32
                | (long) value.charAt(i + 5) << 40 | (long) value.charAt(i + 6) << 48
                | (long) value.charAt(i + 7) << 56;
            buffer.putLong(index + i, eight, java.nio.ByteOrder.LITTLE_ENDIAN);
        }
        for (; i < count; i++) {
            buffer.putByte(index + i, (byte) value.charAt(i));
        }
    }

    /** The UTF-8 length of {@code value}, given that its first {@code from} chars are ASCII. */
    private static long encodedLengthFrom(final String value, final int from) {
        final int chars = value.length();
        long length = chars; // every char contributes at least one byte; add the rest below
        for (int i = from; i < chars; i++) {
            final char c = value.charAt(i);
            if (c < 0x80) {
                continue;
            }
            if (c < 0x800) {
                length += 1;
            } else if (!Character.isSurrogate(c)) {
                length += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < chars && Character.isLowSurrogate(value.charAt(i + 1))) {
                length += 2; // two chars, four bytes
                i++;
            }
            // else an unpaired surrogate: one '?'
        }
        return length;
    }

    private static int checkedLength(final long length) {
        if (length > Integer.MAX_VALUE) {
            throw new CodecException(NAME, "encoding needs " + length + " bytes, more than a buffer can hold");
        }
        return (int) length;
    }

    /**
     * Returns the index of the first byte at which {@code bytes} stops being well-formed UTF-8, or -1 if all of it
     * is. For a bad or truncated sequence that is the index of its lead byte.
     */
    static int firstMalformed(final byte[] bytes) {
        return firstMalformed(bytes, bytes.length);
    }

    /** {@link #firstMalformed(byte[])} of the first {@code n} bytes of {@code bytes}. */
    static int firstMalformed(final byte[] bytes, final int n) {
        int i = 0;
        while (i < n) {
            if (bytes[i] >= 0) {
                i++; // ASCII
                continue;
            }
            final int size = sequenceLength(bytes, n, i);
            if (size < 0) {
                return i;
            }
            i += size;
        }
        return -1;
    }

    private static final int STRAY_CONTINUATION = -1;
    private static final int NEVER_VALID = -2;
    private static final int TRUNCATED = -3;
    private static final int OVERLONG = -4;
    private static final int SURROGATE = -5;
    private static final int ABOVE_MAX = -6;
    private static final int BAD_CONTINUATION = -7;

    /**
     * The length of the well-formed multi-byte sequence starting at {@code i}, or one of the negative reasons above
     * (Unicode table 3-7: the second byte's range depends on the lead, later bytes are 80..BF).
     */
    private static int sequenceLength(final byte[] bytes, final int n, final int i) {
        final int lead = bytes[i] & 0xFF;
        final int size;
        int min2 = 0x80;
        int max2 = 0xBF;
        int belowMin2 = BAD_CONTINUATION;
        int aboveMax2 = BAD_CONTINUATION;
        if (lead < 0xC0) {
            return STRAY_CONTINUATION;
        } else if (lead < 0xC2) {
            return OVERLONG; // C0, C1 only ever start overlong 2-byte forms
        } else if (lead < 0xE0) {
            size = 2;
        } else if (lead < 0xF0) {
            size = 3;
            if (lead == 0xE0) {
                min2 = 0xA0; // below U+0800
                belowMin2 = OVERLONG;
            } else if (lead == 0xED) {
                max2 = 0x9F; // U+D800..U+DFFF
                aboveMax2 = SURROGATE;
            }
        } else if (lead < 0xF5) {
            size = 4;
            if (lead == 0xF0) {
                min2 = 0x90; // below U+10000
                belowMin2 = OVERLONG;
            } else if (lead == 0xF4) {
                max2 = 0x8F; // above U+10FFFF
                aboveMax2 = ABOVE_MAX;
            }
        } else {
            return NEVER_VALID;
        }
        if (i + 1 >= n) {
            return TRUNCATED;
        }
        final int b1 = bytes[i + 1] & 0xFF;
        if (b1 < min2) {
            return b1 < 0x80 ? BAD_CONTINUATION : belowMin2;
        }
        if (b1 > max2) {
            return b1 > 0xBF ? BAD_CONTINUATION : aboveMax2;
        }
        for (int k = 2; k < size; k++) {
            if (i + k >= n) {
                return TRUNCATED;
            }
            if ((bytes[i + k] & 0xC0) != 0x80) {
                return BAD_CONTINUATION;
            }
        }
        return size;
    }

    private static CodecException malformed(final byte[] bytes, final int n, final int at, final int offset,
                                            final int length) {
        final StringBuilder shown = new StringBuilder();
        final int end = Math.min(n, at + 4);
        for (int k = at; k < end; k++) {
            shown.append(k > at ? " " : "").append(String.format("%02X", bytes[k] & 0xFF));
        }
        final String reason = switch (sequenceLength(bytes, n, at)) {
            case STRAY_CONTINUATION -> "continuation byte without a lead byte";
            case NEVER_VALID -> "byte never valid in UTF-8";
            case TRUNCATED -> "sequence truncated by the end of the range";
            case OVERLONG -> "overlong encoding";
            case SURROGATE -> "encoded surrogate";
            case ABOVE_MAX -> "code point above U+10FFFF";
            default -> "invalid continuation byte";
        };
        return new CodecException(NAME, "malformed UTF-8 at byte " + at + " (buffer index " + ((long) offset + at)
            + ") of " + CodecRanges.range(offset, length) + ": " + shown + (end < n ? " ..." : "")
            + " (" + reason + ")");
    }
}
