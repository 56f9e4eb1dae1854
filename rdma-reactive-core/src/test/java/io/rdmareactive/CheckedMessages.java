package io.rdmareactive;

import io.rdmareactive.codec.Codec;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import reactor.core.publisher.Flux;

/**
 * Messages that carry their own proof: {@code connection id (int), sequence (long), CRC32C of the payload (int)},
 * then the payload. Sizes are mixed and follow from (connection, sequence), so the receiver knows each one's length
 * too: mostly small, some of a few KiB, some near a 64 KiB ring's largest frame (16 KiB less its header), and some
 * up to {@link #MAX_PAYLOAD}, which travel as fragments. Payload bytes are slices of one seeded random pool, so
 * making a message costs no more than copying it.
 */
final class CheckedMessages {

    static final int HEADER = 16;
    static final int MAX_PAYLOAD = 100 * 1024;
    /** Room for the largest message, header included, with some to spare. */
    static final int MAX_MESSAGE = 128 * 1024;

    private static final byte[] POOL = new byte[256 * 1024];

    static {
        new SplittableRandom(20261202).nextBytes(POOL);
    }

    /** A message to send: where its payload lies in the pool, and its checksum. */
    record Message(int connection, long sequence, int offset, int length, int crc) {
    }

    private CheckedMessages() {
    }

    /** @return the payload length of message {@code sequence} of connection {@code connection} */
    static int payloadLength(final int connection, final long sequence) {
        final long mixed = mix(connection * 0x9E3779B97F4A7C15L + sequence);
        final int bucket = (int) Long.remainderUnsigned(mixed, 1000);
        final long r = mixed >>> 20;
        if (bucket < 900) {
            return (int) (r % 120);                        // 0 to 119 bytes
        } else if (bucket < 985) {
            return 120 + (int) (r % 4000);                 // up to ~4 KiB
        } else if (bucket < 998) {
            return 4096 + (int) (r % (16 * 1024 - 4096));  // up to one 64 KiB ring frame
        }
        return 16 * 1024 + (int) (r % (MAX_PAYLOAD - 16 * 1024 + 1)); // fragmented, up to 100 KiB
    }

    private static long mix(final long value) {
        long z = value;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    static Message message(final int connection, final long sequence) {
        final int length = payloadLength(connection, sequence);
        final int offset = (int) Long.remainderUnsigned(mix(sequence ^ ((long) connection << 40)),
            POOL.length - length + 1);
        final CRC32C crc = new CRC32C();
        crc.update(POOL, offset, length);
        return new Message(connection, sequence, offset, length, (int) crc.getValue());
    }

    /** @return messages 0 to count - 1 of a connection, made as they are requested */
    static Flux<Message> messages(final int connection, final long count) {
        return Flux.generate(() -> 0L, (sequence, sink) -> {
            if (sequence < count) {
                sink.next(message(connection, sequence));
            } else {
                sink.complete();
            }
            return sequence + 1;
        });
    }

    /** Encodes a {@link Message}; decoding is the receiver's business ({@link Checker}). */
    static final Codec<Message> CODEC = new Codec<>() {
        @Override
        public String name() {
            return "checked-message";
        }

        @Override
        public int encodedLength(final Message message) {
            return HEADER + message.length();
        }

        @Override
        public int encode(final Message message, final MutableDirectBuffer buffer, final int offset,
                          final int maxLength) {
            final int length = HEADER + message.length();
            if (maxLength < length) {
                throw new IllegalArgumentException("a " + length + "-byte message in " + maxLength + " bytes");
            }
            buffer.putInt(offset, message.connection());
            buffer.putLong(offset + 4, message.sequence());
            buffer.putInt(offset + 12, message.crc());
            buffer.putBytes(offset + HEADER, POOL, message.offset(), message.length());
            return length;
        }

        @Override
        public Message decode(final DirectBuffer buffer, final int offset, final int length) {
            throw new UnsupportedOperationException("the receiver checks views in place");
        }
    };

    /**
     * Checks what one connection receives, in place (a view valid during the call): the same connection id
     * throughout, sequences 0, 1, 2, ... with none missing, repeated or reordered, the length the sequence implies,
     * and a payload whose CRC32C matches the header. Called by one thread at a time (the connection's subscriber).
     */
    static final class Checker {

        private final byte[] copy = new byte[MAX_MESSAGE];
        private final CRC32C crc = new CRC32C();
        private int connection = -1;
        private long next;
        private long count;
        private long bytes;
        private long fragmented;
        private String firstProblem;
        private long problems;

        void check(final DirectBuffer view) {
            final int length = view.capacity();
            if (length < HEADER) {
                problem("message " + next + " is " + length + " bytes, shorter than its header");
                count++;
                next++;
                return;
            }
            final int id = view.getInt(0);
            final long sequence = view.getLong(4);
            final int expectedCrc = view.getInt(12);
            if (connection < 0) {
                connection = id;
            } else if (id != connection) {
                problem("message " + next + " names connection " + id + ", not " + connection);
            }
            if (sequence != next) {
                problem("connection " + connection + ": expected sequence " + next + ", got " + sequence);
            }
            final int payload = length - HEADER;
            if (payload != payloadLength(id, sequence)) {
                problem("connection " + connection + " message " + sequence + ": " + payload + " payload bytes, not "
                    + payloadLength(id, sequence));
            }
            view.getBytes(HEADER, copy, 0, payload);
            crc.reset();
            crc.update(copy, 0, payload);
            if ((int) crc.getValue() != expectedCrc) {
                problem("connection " + connection + " message " + sequence + ": CRC32C mismatch");
            }
            if (payload > 16 * 1024 - 8 - HEADER) {
                fragmented++;
            }
            bytes += length;
            count++;
            next++;
        }

        private void problem(final String description) {
            problems++;
            if (firstProblem == null) {
                firstProblem = description;
            }
        }

        int connection() {
            return connection;
        }

        long received() {
            return count;
        }

        long bytes() {
            return bytes;
        }

        long fragmented() {
            return fragmented;
        }

        long problems() {
            return problems;
        }

        String firstProblem() {
            return firstProblem;
        }
    }
}
