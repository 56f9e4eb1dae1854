package io.rdmareactive.samples.docs;

// tag::codec[]
import io.rdmareactive.codec.Codec;
import io.rdmareactive.codec.CodecException;
import io.rdmareactive.codec.CodecRanges;
import java.nio.ByteOrder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/** An {@link Order} in 12 bytes, little-endian: its id, then its quantity. */
public final class OrderCodec implements Codec<Order> {

    private static final int LENGTH = 12;

    @Override
    public String name() {
        return "order";
    }

    @Override
    public int encodedLength(final Order value) {
        return LENGTH;
    }

    @Override
    public int encode(final Order value, final MutableDirectBuffer buffer, final int offset, final int maxLength) {
        CodecRanges.checkEncodeRange(name(), buffer, offset, maxLength);   // malformed or outside the buffer
        if (maxLength < LENGTH) {
            throw CodecRanges.doesNotFit(name(), LENGTH, offset, maxLength); // names both lengths and the range
        }
        buffer.putLong(offset, value.id(), ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(offset + 8, value.quantity(), ByteOrder.LITTLE_ENDIAN);
        return LENGTH;
    }

    @Override
    public Order decode(final DirectBuffer buffer, final int offset, final int length) {
        CodecRanges.checkDecodeRange(name(), buffer, offset, length);
        if (length != LENGTH) {
            throw new CodecException(name(), "an order is " + LENGTH + " bytes, not " + length);
        }
        return new Order(buffer.getLong(offset, ByteOrder.LITTLE_ENDIAN),
            buffer.getInt(offset + 8, ByteOrder.LITTLE_ENDIAN));
    }

    @Override
    public boolean decodesToView() {
        return false; // the Order owns its fields: the ring space is free once decode returns
    }
}
// end::codec[]
