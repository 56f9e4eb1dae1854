package io.rdmareactive.internal.protocol;

import org.agrona.DirectBuffer;

/**
 * The connection handshake, carried in the private data of the rdma_cm connect request (at most 56 bytes) and of
 * its accept: both use this 40-byte layout, each side describing the receive region it offers the other.
 * Little-endian; byte offsets on the right:
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                 Magic = 0x31505252 ("RRP1")                   |  0
 *  +-------------------------------+-------------------------------+
 *  |          Version = 1          |    Flags (0; 1 = AUTH)        |  4
 *  +-------------------------------+-------------------------------+
 *  |     Max Streams (2..1024)     |         Reserved = 0          |  8
 *  +-------------------------------+-------------------------------+
 *  |         Ring Capacity (power of two, 4096..16 MiB)            | 12
 *  +---------------------------------------------------------------+
 *  |             Max Message Length (1 KiB..1 GiB)                 | 16
 *  +---------------------------------------------------------------+
 *  |                     Receive Region Rkey                       | 20
 *  +---------------------------------------------------------------+
 *  |                                                               | 24
 *  +                   Receive Region Address                      +
 *  |                                                               | 28
 *  +---------------------------------------------------------------+
 *  |                                                               | 32
 *  +                   Receive Region Length                       +
 *  |                                                               | 36
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <p>The receive region is registered memory the peer may RDMA WRITE into: first one receive ring of
 * {@code ringCapacity} bytes per stream slot, then one 64-byte credit line per slot, the rest of each line keeping
 * neighbouring words off each other's cache line. In credit line {@code s}, at {@link #CREDIT_WORD_OFFSET}, the peer
 * writes its consumed position of stream {@code s}'s ring (a little-endian long followed by its complement: the credit
 * for this side's sends); in credit line 0, at {@link #RECEIVE_GRANT_OFFSET}, the number of receives it has posted in
 * total (the same 16-byte form: how many writes with an immediate this side may have outstanding). {@code S} = max streams,
 * {@code C} = ring capacity:
 *
 * <pre>
 *   0            C            2C     (S-1)C         SC        SC+64      SC+(S-1)64   S(C+64)
 *   +------------+------------+- .. -+------------+----------+----------+- .. -+----------+
 *   | ring of    | ring of    |      | ring of    | credit   | credit   |      | credit   |
 *   | stream 0   | stream 1   |      | stream S-1 | line 0   | line 1   |      | line S-1 |
 *   +------------+------------+- .. -+------------+----------+----------+- .. -+----------+
 * </pre>
 *
 * <p>{@link #ringOffset(int, int)} and {@link #creditOffset(int, int, int)} give those offsets and
 * {@link #requiredRegionLength(int, int)} the least region length. Private data may arrive longer than the 40 bytes
 * (rdma_cm can deliver it padded with zeros); what follows the handshake is ignored.
 *
 * <p>A flyweight: {@link #wrap(DirectBuffer, int)}, then the getters or {@link #write}. Connection setup is the cold
 * path, so {@link #validate(DirectBuffer, int, int)} may allocate its answer; it never throws and returns null, with
 * no allocation, for a valid handshake.
 */
public final class HandshakeFlyweight extends Flyweight<HandshakeFlyweight> {

    /** Offset of the magic (int). */
    public static final int MAGIC_OFFSET = 0;
    /** Offset of the version (short). */
    public static final int VERSION_OFFSET = 4;
    /** Offset of the flags (short), 0 in version 1. */
    public static final int FLAGS_OFFSET = 6;
    /** Offset of the number of stream slots (short). */
    public static final int MAX_STREAMS_OFFSET = 8;
    /** Offset of the reserved short, 0. */
    public static final int RESERVED_OFFSET = 10;
    /** Offset of each stream ring's capacity (int). */
    public static final int RING_CAPACITY_OFFSET = 12;
    /** Offset of the longest message (int). */
    public static final int MAX_MESSAGE_LENGTH_OFFSET = 16;
    /** Offset of the receive region's rkey (int). */
    public static final int RECEIVE_REGION_RKEY_OFFSET = 20;
    /** Offset of the receive region's address (long). */
    public static final int RECEIVE_REGION_ADDRESS_OFFSET = 24;
    /** Offset of the receive region's length (long). */
    public static final int RECEIVE_REGION_LENGTH_OFFSET = 32;
    /** The length of the handshake. */
    public static final int LENGTH = 40;

    /**
     * Flag of an authenticated handshake: the receive region's key, address and length are not in it. A connect
     * request carries, from {@link #AUTH_NONCE_OFFSET}, the client's nonce ({@link #CLIENT_NONCE_LENGTH} bytes), from
     * {@link #AUTH_COOKIE_OFFSET} the server's challenge cookie and from {@link #AUTH_MAC_OFFSET} the client's proof;
     * the first request of a connection has neither (zeros) and is answered with a challenge
     * ({@link ChallengeFlyweight}), the second has both, and the server accepts only that one, holding nothing for
     * the first. An answer carries the server's nonce (16 bytes from {@link #AUTH_NONCE_OFFSET}) and its MAC. The keys
     * travel over the connected queue pair afterwards ({@link HandshakeAuthentication}).
     */
    public static final int FLAG_AUTH = 1;
    /**
     * Flag of direct peer access: in a connect request, the client's device maps its peers' memory (shared memory)
     * and it will poll its rings for frames a peer publishes there; in the answer, the server agrees (its device can
     * too), and then both sides write their data streams straight into the peer's receive rings and publish each
     * stream's position in the peer's credit line ({@link #PUBLISHED_OFFSET}), with no work request in between.
     */
    public static final int FLAG_DIRECT = 2;
    /** Offset of the nonce in an authenticated handshake, where the rkey would be. */
    public static final int AUTH_NONCE_OFFSET = RECEIVE_REGION_RKEY_OFFSET;
    /** Bytes of the client's nonce in an authenticated connect request (the server's is 16). */
    public static final int CLIENT_NONCE_LENGTH = 8;
    /** Offset of the server's challenge cookie in an authenticated connect request (8 bytes; zeros in the first). */
    public static final int AUTH_COOKIE_OFFSET = AUTH_NONCE_OFFSET + CLIENT_NONCE_LENGTH;
    /** Bytes of the cookie. */
    public static final int COOKIE_LENGTH = 8;
    /** Offset of the client's proof in an authenticated connect request, of the server's MAC in its answer. */
    public static final int AUTH_MAC_OFFSET = AUTH_NONCE_OFFSET + 16;
    /** The length of an authenticated handshake: 52 bytes, within the 55 the verbs provider carries. */
    public static final int AUTH_LENGTH = AUTH_MAC_OFFSET + 16;

    /** The most private data an rdma_cm connect request carries. */
    public static final int MAX_PRIVATE_DATA_LENGTH = 56;
    /** "RRP1" read as a little-endian int. */
    public static final int MAGIC = 0x31505252;
    /** The protocol version this side speaks. */
    public static final int VERSION = 8;
    /** The fewest stream slots. */
    public static final int MIN_STREAMS = 2;
    /** The most stream slots: as many as an immediate can name. */
    public static final int MAX_STREAMS = ImmediateCodec.MAX_STREAMS;
    /** The smallest ring capacity. */
    public static final int MIN_RING_CAPACITY = 4096;
    /** The largest ring capacity. */
    public static final int MAX_RING_CAPACITY = ImmediateCodec.MAX_RING_CAPACITY;
    /** The smallest max message length: 1 KiB. */
    public static final int MIN_MESSAGE_LENGTH = 1 << 10;
    /** The largest max message length: 1 GiB. */
    public static final int MAX_MESSAGE_LENGTH = 1 << 30;
    /** The length of each stream's credit line in the receive region. */
    public static final int CREDIT_LINE_LENGTH = 64;
    /**
     * Offset in credit line {@code s} of the peer's consumed position of stream {@code s}: a little-endian long
     * followed by its bitwise complement (16 bytes), so that a reader can tell a word caught mid-write.
     */
    public static final int CREDIT_WORD_OFFSET = 0;
    /** Offset in credit line 0 of the receives the peer has posted, in total (long). */
    public static final int RECEIVE_GRANT_OFFSET = 16;
    /**
     * Offset in credit line 0 of the peer's goodbye (a checked word): 1 once it closes the connection on purpose,
     * written and completed before it disconnects, so that a disconnect without it is a peer that went away.
     */
    public static final int GOODBYE_OFFSET = 32;
    /**
     * Offset in credit line {@code s} of the position up to which the peer has published frames into this side's
     * receive ring {@code s}, with direct peer access ({@link #FLAG_DIRECT}): a long written with a release store after
     * the frames; data streams only.
     */
    public static final int PUBLISHED_OFFSET = 48;
    /**
     * Offset in credit line 0 of the look-flag, with direct peer access, a long of bits: the peer adds bit
     * {@code s % 64} after it publishes on stream {@code s}, bit 0 after it posts or writes credit, whenever it finds
     * the bit missing (and rings this side's doorbell if the flag was 0, see the connection layout); this side takes
     * the word with an atomic swap before it reads the published positions of the streams its bits name, so that an
     * idle connection costs its loop one read, and a call on one stream one line of positions.
     */
    public static final int LOOK_FLAG_OFFSET = PUBLISHED_OFFSET;

    /**
     * Writes the whole handshake: magic, {@link #VERSION}, flags and reserved 0, and the given fields.
     *
     * @param maxStreams           stream slots, {@link #MIN_STREAMS} .. {@link #MAX_STREAMS}
     * @param ringCapacity         each ring's capacity, a power of two, {@link #MIN_RING_CAPACITY} ..
     *                             {@link #MAX_RING_CAPACITY}
     * @param maxMessageLength     the longest message, {@link #MIN_MESSAGE_LENGTH} .. {@link #MAX_MESSAGE_LENGTH}
     * @param receiveRegionRkey    the receive region's rkey
     * @param receiveRegionAddress the receive region's address, as the peer must name it in its writes
     * @param receiveRegionLength  the receive region's length, at least
     *                             {@link #requiredRegionLength(int, int) requiredRegionLength(maxStreams, ringCapacity)}
     * @return this
     */
    public HandshakeFlyweight write(final int maxStreams, final int ringCapacity, final int maxMessageLength,
                                    final int receiveRegionRkey, final long receiveRegionAddress,
                                    final long receiveRegionLength) {
        return putInt(MAGIC_OFFSET, MAGIC).putShort(VERSION_OFFSET, VERSION).putShort(FLAGS_OFFSET, 0)
            .putShort(MAX_STREAMS_OFFSET, maxStreams).putShort(RESERVED_OFFSET, 0)
            .putInt(RING_CAPACITY_OFFSET, ringCapacity).putInt(MAX_MESSAGE_LENGTH_OFFSET, maxMessageLength)
            .putInt(RECEIVE_REGION_RKEY_OFFSET, receiveRegionRkey)
            .putLong(RECEIVE_REGION_ADDRESS_OFFSET, receiveRegionAddress)
            .putLong(RECEIVE_REGION_LENGTH_OFFSET, receiveRegionLength);
    }

    /** @return the magic ({@link #MAGIC} if the handshake is ours) */
    public int magic() {
        return getInt(MAGIC_OFFSET);
    }

    /** @return the version, unsigned */
    public int version() {
        return getUnsignedShort(VERSION_OFFSET);
    }

    /** @return true if the flags ask for the authenticated handshake */
    public boolean isAuthenticated() {
        return (flags() & FLAG_AUTH) != 0;
    }

    /** @return true if the flags offer (or agree to) direct peer access */
    public boolean isDirect() {
        return (flags() & FLAG_DIRECT) != 0;
    }

    /** @return the flags, unsigned */
    public int flags() {
        return getUnsignedShort(FLAGS_OFFSET);
    }

    /** @return the number of stream slots, unsigned */
    public int maxStreams() {
        return getUnsignedShort(MAX_STREAMS_OFFSET);
    }

    /** @return the reserved short, unsigned */
    public int reserved() {
        return getUnsignedShort(RESERVED_OFFSET);
    }

    /** @return each stream ring's capacity */
    public int ringCapacity() {
        return getInt(RING_CAPACITY_OFFSET);
    }

    /** @return the longest message */
    public int maxMessageLength() {
        return getInt(MAX_MESSAGE_LENGTH_OFFSET);
    }

    /** @return the receive region's rkey */
    public int receiveRegionRkey() {
        return getInt(RECEIVE_REGION_RKEY_OFFSET);
    }

    /** @return the receive region's address */
    public long receiveRegionAddress() {
        return getLong(RECEIVE_REGION_ADDRESS_OFFSET);
    }

    /** @return the receive region's length */
    public long receiveRegionLength() {
        return getLong(RECEIVE_REGION_LENGTH_OFFSET);
    }

    /**
     * @param maxStreams   stream slots
     * @param ringCapacity each ring's capacity
     * @return the least length of a receive region: {@code maxStreams * (ringCapacity + 64)}, the rings and then
     *     one credit line per stream
     */
    public static long requiredRegionLength(final int maxStreams, final int ringCapacity) {
        return (long) maxStreams * ((long) ringCapacity + CREDIT_LINE_LENGTH);
    }

    /**
     * @param streamId     a stream slot
     * @param ringCapacity each ring's capacity
     * @return the offset of the stream's receive ring in the receive region: {@code streamId * ringCapacity}
     */
    public static long ringOffset(final int streamId, final int ringCapacity) {
        return (long) streamId * ringCapacity;
    }

    /**
     * @param streamId     a stream slot
     * @param maxStreams   stream slots
     * @param ringCapacity each ring's capacity
     * @return the offset of the stream's credit line in the receive region:
     *     {@code maxStreams * ringCapacity + streamId * 64}
     */
    public static long creditOffset(final int streamId, final int maxStreams, final int ringCapacity) {
        return (long) maxStreams * ringCapacity + (long) streamId * CREDIT_LINE_LENGTH;
    }

    /**
     * @param ringCapacity a ring capacity
     * @return true for a power of two from {@link #MIN_RING_CAPACITY} to {@link #MAX_RING_CAPACITY}
     */
    public static boolean isValidRingCapacity(final int ringCapacity) {
        return ringCapacity >= MIN_RING_CAPACITY && ringCapacity <= MAX_RING_CAPACITY
            && Integer.bitCount(ringCapacity) == 1;
    }

    /**
     * Checks a handshake a peer sent. Never throws, whatever the bytes and arguments.
     *
     * @param buffer the private data
     * @param offset where the handshake starts in it
     * @param length the private data's length from {@code offset} (at least {@link #LENGTH}; more is ignored)
     * @return null if the handshake is valid; otherwise a short reason, naming the first thing found wrong: its key
     *     words and values within the first {@link RejectFlyweight#MAX_REASON_LENGTH} characters, so that a reject
     *     carries them to the peer
     */
    public static String validate(final DirectBuffer buffer, final int offset, final int length) {
        if (buffer == null) {
            return "no private data";
        }
        if (offset < 0 || length < 0 || (long) offset + length > buffer.capacity()) {
            return "private data range [" + offset + ", " + ((long) offset + length)
                + ") lies outside the buffer of " + buffer.capacity() + " bytes";
        }
        if (length < LENGTH) {
            return "private data of " + length + " bytes is shorter than the " + LENGTH + "-byte handshake";
        }
        final int magic = buffer.getInt(offset + MAGIC_OFFSET, BYTE_ORDER);
        if (magic != MAGIC) {
            return "not an rdma-reactive handshake: private data starts with 0x" + Integer.toHexString(magic)
                + ", not the RRP1 magic";
        }
        final int version = buffer.getShort(offset + VERSION_OFFSET, BYTE_ORDER) & 0xFFFF;
        if (version != VERSION) {
            return "protocol version " + version + " is not supported (this side speaks " + VERSION + ")";
        }
        final int flags = buffer.getShort(offset + FLAGS_OFFSET, BYTE_ORDER) & 0xFFFF;
        if ((flags & ~(FLAG_AUTH | FLAG_DIRECT)) != 0) {
            return "handshake flags 0x" + Integer.toHexString(flags) + " are not known to version " + VERSION
                + " (1 for AUTH, 2 for DIRECT, or both)";
        }
        if ((flags & FLAG_AUTH) != 0 && length < AUTH_LENGTH) {
            return "authenticated handshake of " + length + " bytes is shorter than " + AUTH_LENGTH;
        }
        final int reserved = buffer.getShort(offset + RESERVED_OFFSET, BYTE_ORDER) & 0xFFFF;
        if (reserved != 0) {
            return "handshake reserved field is 0x" + Integer.toHexString(reserved) + " (must be 0)";
        }
        final int maxStreams = buffer.getShort(offset + MAX_STREAMS_OFFSET, BYTE_ORDER) & 0xFFFF;
        if (maxStreams < MIN_STREAMS || maxStreams > MAX_STREAMS) {
            return "max streams " + maxStreams + " is not between " + MIN_STREAMS + " and " + MAX_STREAMS;
        }
        final int ringCapacity = buffer.getInt(offset + RING_CAPACITY_OFFSET, BYTE_ORDER);
        if (!isValidRingCapacity(ringCapacity)) {
            return "ring capacity " + ringCapacity + " is not a power of two between " + MIN_RING_CAPACITY + " and "
                + MAX_RING_CAPACITY;
        }
        final int maxMessageLength = buffer.getInt(offset + MAX_MESSAGE_LENGTH_OFFSET, BYTE_ORDER);
        if (maxMessageLength < MIN_MESSAGE_LENGTH || maxMessageLength > MAX_MESSAGE_LENGTH) {
            return "max message length " + maxMessageLength + " is not between " + MIN_MESSAGE_LENGTH + " and "
                + MAX_MESSAGE_LENGTH;
        }
        if ((flags & FLAG_AUTH) != 0) {
            return null; // no keys here: they come over the queue pair, checked there
        }
        final long regionLength = buffer.getLong(offset + RECEIVE_REGION_LENGTH_OFFSET, BYTE_ORDER);
        final long required = requiredRegionLength(maxStreams, ringCapacity);
        if (regionLength < required) {
            return receiveRegionProblem(regionLength, maxStreams, ringCapacity);
        }
        return null;
    }

    /** @return why a receive region of that length cannot serve those settings, or null if it can */
    public static String receiveRegionProblem(final long regionLength, final int maxStreams, final int ringCapacity) {
        final long required = requiredRegionLength(maxStreams, ringCapacity);
        if (regionLength < required) {
            return "receive region of " + regionLength + " bytes is smaller than the " + required + " bytes it must "
                + "hold (" + maxStreams + " rings of " + ringCapacity + " bytes, " + maxStreams + " credit lines of "
                + CREDIT_LINE_LENGTH + ")";
        }
        return null;
    }
}
