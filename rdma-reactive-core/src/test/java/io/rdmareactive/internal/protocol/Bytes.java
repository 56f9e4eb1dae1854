package io.rdmareactive.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/** Small helpers for the flyweight tests. */
final class Bytes {

    private Bytes() {
    }

    static byte[] filled(final int length, final byte fill) {
        final byte[] bytes = new byte[length];
        Arrays.fill(bytes, fill);
        return bytes;
    }

    /** @return a little-endian view of the array, to read fields independently of the flyweights */
    static ByteBuffer le(final byte[] bytes) {
        return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    static void assertUntouchedOutside(final byte[] bytes, final int from, final int to, final byte fill) {
        for (int i = 0; i < bytes.length; i++) {
            if ((i < from || i >= to) && bytes[i] != fill) {
                assertThat(bytes[i]).as("byte %d, outside [%d, %d)", i, from, to).isEqualTo(fill);
            }
        }
    }
}
