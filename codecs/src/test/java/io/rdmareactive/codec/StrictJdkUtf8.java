package io.rdmareactive.codec;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** The oracle for the UTF-8 decoder: the JDK's own decoder, set to report malformed input instead of replacing it. */
final class StrictJdkUtf8 {

    private StrictJdkUtf8() {
    }

    /** The JDK's strict decoding of {@code bytes}, or {@code null} where it reports them malformed. */
    static String decode(final byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes))
                .toString();
        } catch (final CharacterCodingException malformed) {
            return null;
        }
    }
}
