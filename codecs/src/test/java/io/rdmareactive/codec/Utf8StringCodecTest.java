package io.rdmareactive.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class Utf8StringCodecTest {

    private static final Codec<String> CODEC = Codecs.UTF8_STRING;

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "'', ''",
        "A, 41",
        "é, C3A9",
        "€, E282AC",
        "\uD83D\uDE00, F09F9880", // 😀: one surrogate pair, four bytes
        "a\uD800b, 613F62", // unpaired high surrogate -> '?'
        "a\uDC00b, 613F62", // unpaired low surrogate -> '?'
        "\uDC00\uD800, 3F3F", // low then high: two unpaired surrogates
        "\uD800\uD800\uDC00, 3FF0908080", // unpaired high, then a pair
        "\uD83D, 3F", // high surrogate at the very end
        "\u07FF\u0800\uFFFF, DFBFE0A080EFBFBF", // the edges of the 2- and 3-byte forms
        "\uDBFF\uDFFF, F48FBFBF", // U+10FFFF
    })
    void encodesExactlyAsTheJdkDoes(final String value, final String hex) {
        final byte[] expected = HexFormat.of().parseHex(hex);
        assertThat(Values.utf8(value)).as("the JDK agrees").isEqualTo(expected);
        assertThat(CODEC.encodedLength(value)).isEqualTo(expected.length);

        final MutableDirectBuffer buffer = TestBuffers.Kind.HEAP.allocate(expected.length + 6);
        assertThat(CODEC.encode(value, buffer, 3, expected.length)).isEqualTo(expected.length);
        assertThat(TestBuffers.bytesOf(buffer, 3, expected.length)).isEqualTo(expected);
        TestBuffers.assertCanaryOutside(buffer, 3, 3 + expected.length);
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource({
        "80, continuation byte without a lead byte",
        "BF, continuation byte without a lead byte",
        "C080, overlong encoding", // NUL as two bytes ("modified UTF-8")
        "C1BF, overlong encoding",
        "E08080, overlong encoding",
        "E09FBF, overlong encoding",
        "F08F BFBF, overlong encoding",
        "EDA080, encoded surrogate", // U+D800
        "EDBFBF, encoded surrogate", // U+DFFF
        "EDA0BDEDB880, encoded surrogate", // CESU-8 for U+1F600
        "F4908080, code point above U+10FFFF",
        "F5808080, byte never valid in UTF-8",
        "FF, byte never valid in UTF-8",
        "FE, byte never valid in UTF-8",
        "C3, sequence truncated by the end of the range",
        "E282, sequence truncated by the end of the range",
        "F09F98, sequence truncated by the end of the range",
        "C341, invalid continuation byte",
        "E2C2AC, invalid continuation byte",
        "EDC080, invalid continuation byte",
        "F4C08080, invalid continuation byte",
        "E07F80, invalid continuation byte",
        "F09F9841, invalid continuation byte",
    })
    void rejectsMalformedUtf8NamingTheFirstBadByte(final String hex, final String reason) {
        final byte[] malformed = HexFormat.of().parseHex(hex.replace(" ", ""));
        assertThat(StrictJdkUtf8.decode(malformed)).as("the JDK rejects it too").isNull();

        // the malformed bytes after a valid prefix, inside a larger buffer
        final byte[] bytes = new byte[20 + malformed.length];
        bytes[10] = 'o';
        bytes[11] = 'k';
        System.arraycopy(malformed, 0, bytes, 12, malformed.length);
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);

        assertThatThrownBy(() -> CODEC.decode(buffer, 10, 2 + malformed.length))
            .isExactlyInstanceOf(CodecException.class)
            .hasMessageStartingWith("utf8-string: malformed UTF-8 at byte 2 (buffer index 12) of [offset 10, length "
                + (2 + malformed.length) + ")")
            .hasMessageEndingWith("(" + reason + ")");
    }

    @Test
    void reportsTheFirstBadByteOfAValidPrefix() {
        final byte[] bytes = HexFormat.of().parseHex("E282AC" + "41" + "F09F9880" + "C0AF" + "E282AC");
        assertThatThrownBy(() -> CODEC.decode(new UnsafeBuffer(bytes), 0, bytes.length))
            .hasMessageContaining("at byte 8 (buffer index 8)")
            .hasMessageContaining(": C0 AF E2 82 ... (overlong encoding)");
    }

    /**
     * The lead byte decides which second bytes are allowed (Unicode table 3-7). Every lead byte with every second
     * byte, followed by nothing, one continuation or two, is judged as the strict JDK decoder judges it.
     */
    @Test
    void everyLeadByteWithEverySecondByteIsJudgedAsTheStrictJdkDecoderJudgesIt() {
        // 262,000 verdicts: compare the validator itself against a reused JDK decoder, without exceptions
        final CharsetDecoder jdk = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
        final CharBuffer out = CharBuffer.allocate(8);
        final byte[][] tails = {{}, {(byte) 0x80}, {(byte) 0xBF, (byte) 0xBF}, {(byte) 0x41}};
        int valid = 0;
        for (int lead = 0; lead < 256; lead++) {
            for (int second = -1; second < 256; second++) {
                for (final byte[] tail : second < 0 ? new byte[][] {{}} : tails) {
                    final byte[] bytes = new byte[(second < 0 ? 1 : 2) + tail.length];
                    bytes[0] = (byte) lead;
                    if (second >= 0) {
                        bytes[1] = (byte) second;
                        System.arraycopy(tail, 0, bytes, 2, tail.length);
                    }
                    jdk.reset();
                    out.clear();
                    final CoderResult result = jdk.decode(ByteBuffer.wrap(bytes), out, true);
                    final boolean jdkAccepts = !result.isError() && !jdk.flush(out).isError();
                    final boolean accepts = Utf8StringCodec.firstMalformed(bytes) < 0;
                    if (accepts != jdkAccepts) {
                        throw new AssertionError((accepts ? "accepts " : "rejects ") + HexFormat.of().formatHex(bytes)
                            + ", which the JDK " + (jdkAccepts ? "accepts" : "rejects"));
                    }
                    if (accepts) {
                        valid++;
                        assertThat(CODEC.decode(new UnsafeBuffer(bytes), 0, bytes.length))
                            .isEqualTo(out.flip().toString());
                    }
                }
            }
        }
        assertThat(valid).as("some of them are valid").isGreaterThan(10_000);
    }

    @Test
    void copiesBeforeItValidatesSoTheResultDoesNotChangeWithTheBuffer() {
        final UnsafeBuffer buffer = new UnsafeBuffer(Values.utf8("héllo"));
        final String decoded = CODEC.decode(buffer, 0, buffer.capacity());
        buffer.putByte(0, (byte) 'j');
        assertThat(decoded).isEqualTo("héllo");
        assertThat(CODEC.decodesToView()).isFalse();
    }

    @Test
    void emptyStringIsZeroBytesAndDecodesFromAnEmptyRangeAnywhere() {
        final UnsafeBuffer empty = new UnsafeBuffer(new byte[0]);
        assertThat(CODEC.encodedLength("")).isZero();
        assertThat(CODEC.encode("", empty, 0, 0)).isZero();
        assertThat(CODEC.decode(empty, 0, 0)).isEmpty();
        final UnsafeBuffer four = new UnsafeBuffer(new byte[4]);
        assertThat(CODEC.decode(four, 4, 0)).isEmpty(); // an empty range at the very end is inside
    }

    @Property(tries = 300)
    void encodedLengthIsExactForAnyString(@ForAll("anyStrings") final String value) {
        assertThat(CODEC.encodedLength(value)).isEqualTo(Values.utf8(value).length);
    }

    @Provide
    Arbitrary<String> anyStrings() {
        return Values.strings();
    }
}
