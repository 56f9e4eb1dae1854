package io.rdmareactive;

import io.rdmareactive.codec.Codec;
import io.rdmareactive.codec.CodecException;
import java.nio.ByteOrder;
import java.util.Objects;
import java.util.Set;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * What the peer needs to reach a {@link LocalRegion}: the connection it belongs to, the region's address, length and
 * remote key, the rights it grants, and its generation (the how-many-th region registered on that connection). Send it
 * in any message ({@link #CODEC} encodes it in {@value #ENCODED_LENGTH} bytes); the peer turns it into a
 * {@link RemoteRegion} with {@link Connection#remoteRegion(RegionDescriptor)} on the same connection.
 *
 * <p>A descriptor is a capability for that one connection: its key is valid only in the connection's own protection
 * domain, so on any other connection it reaches nothing, and {@code remoteRegion} refuses it at once by its
 * connection token.
 *
 * @param connection the token of the owner's end of the connection
 * @param generation the region's number among the regions registered on the connection, from 1
 * @param address    the address the peer's operations name
 * @param length     the region's length in bytes
 * @param key        the remote key
 * @param rights     what the peer may do
 */
public record RegionDescriptor(long connection, int generation, long address, long length, int key,
                               Set<RegionAccess> rights) {

    /** The encoded length of a descriptor. */
    public static final int ENCODED_LENGTH = 40;

    /** Encodes and decodes descriptors; decoding checks the bytes and never trusts them. */
    public static final Codec<RegionDescriptor> CODEC = new DescriptorCodec();

    private static final int MAGIC = 0x52444553; // "SEDR"
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    public RegionDescriptor {
        Objects.requireNonNull(rights, "rights");
        rights = Set.copyOf(rights);
        if (length <= 0 || address + length < address) {
            throw new IllegalArgumentException("a region descriptor's range is empty or wraps: " + length + " bytes at 0x"
                + Long.toHexString(address));
        }
    }

    @Override
    public String toString() {
        return "RegionDescriptor{generation " + generation + ", " + length + " bytes at 0x" + Long.toHexString(address)
            + ", key 0x" + Integer.toHexString(key) + ", " + rights + '}';
    }

    private static final class DescriptorCodec implements Codec<RegionDescriptor> {

        private static final String NAME = "region-descriptor";

        @Override
        public String name() {
            return NAME;
        }

        @Override
        public int encodedLength(final RegionDescriptor value) {
            Objects.requireNonNull(value, "value");
            return ENCODED_LENGTH;
        }

        @Override
        public int encode(final RegionDescriptor value, final MutableDirectBuffer buffer, final int offset,
                          final int maxLength) {
            Objects.requireNonNull(value, "value");
            io.rdmareactive.codec.CodecRanges.checkEncodeRange(NAME, buffer, offset, maxLength);
            if (maxLength < ENCODED_LENGTH) {
                throw io.rdmareactive.codec.CodecRanges.doesNotFit(NAME, ENCODED_LENGTH, offset, maxLength);
            }
            buffer.putInt(offset, MAGIC, ORDER);
            buffer.putInt(offset + 4, RegionAccess.flags(value.rights()), ORDER);
            buffer.putLong(offset + 8, value.connection(), ORDER);
            buffer.putLong(offset + 16, value.address(), ORDER);
            buffer.putLong(offset + 24, value.length(), ORDER);
            buffer.putInt(offset + 32, value.key(), ORDER);
            buffer.putInt(offset + 36, value.generation(), ORDER);
            return ENCODED_LENGTH;
        }

        @Override
        public RegionDescriptor decode(final DirectBuffer buffer, final int offset, final int length) {
            io.rdmareactive.codec.CodecRanges.checkDecodeRange(NAME, buffer, offset, length);
            if (length != ENCODED_LENGTH) {
                throw new CodecException(NAME, "expected exactly " + ENCODED_LENGTH + " bytes, got " + length);
            }
            final int magic = buffer.getInt(offset, ORDER);
            final int rights = buffer.getInt(offset + 4, ORDER);
            final long connection = buffer.getLong(offset + 8, ORDER);
            final long address = buffer.getLong(offset + 16, ORDER);
            final long regionLength = buffer.getLong(offset + 24, ORDER);
            final int key = buffer.getInt(offset + 32, ORDER);
            final int generation = buffer.getInt(offset + 36, ORDER);
            if (magic != MAGIC) {
                throw new CodecException(NAME, "not a region descriptor (its first word is 0x"
                    + Integer.toHexString(magic) + ")");
            }
            if ((rights & ~RegionAccess.known()) != 0 || rights == 0) {
                throw new CodecException(NAME, "a region descriptor with rights 0x" + Integer.toHexString(rights)
                    + " (none, or unknown ones)");
            }
            if (regionLength <= 0 || address + regionLength < address || generation <= 0) {
                throw new CodecException(NAME, "a region descriptor of " + regionLength + " bytes at 0x"
                    + Long.toHexString(address) + ", generation " + generation + " (an empty or wrapping range, or "
                    + "no generation)");
            }
            return new RegionDescriptor(connection, generation, address, regionLength, key, RegionAccess.of(rights));
        }

        @Override
        public boolean decodesToView() {
            return false;
        }

        @Override
        public String toString() {
            return NAME;
        }
    }
}
