package io.rdmareactive.provider.shm;

import java.nio.charset.StandardCharsets;
import org.agrona.concurrent.AtomicBuffer;

/**
 * The region table of a shared-memory device: one entry per registered region, in a file that peers map to check
 * the keys they are given before touching any memory.
 *
 * <pre>
 *  table header (64 bytes)
 *   0                   4                   8                  12
 *  +-------------------+-------------------+-------------------+------ ... --+
 *  | magic 'RRMT'      | version           | entries           |  reserved   |
 *  +-------------------+-------------------+-------------------+------ ... --+
 *
 *  entry i at 64 + i * 256
 *   0            4            8            12           16                      24                      32       36  40
 *  +------------+------------+------------+------------+-----------------------+-----------------------+--------+---+---
 *  | generation | state      | access     | path bytes | base address (owner)  | length                | domain | 0 | path
 *  +------------+------------+------------+------------+-----------------------+-----------------------+--------+---+---
 * </pre>
 *
 * <p>The domain is the protection domain the region is registered in (0: the device's own): a peer's work request
 * reaches it only through a queue pair of the same domain ({@link QueuePairFile#domain()}), as an adapter checks. The
 * path (UTF-8, at most 216 bytes) is the file the region is mapped from.
 *
 * <p>The owner fills an entry and then publishes it with an ordered store of {@code state = VALID}; it retires an
 * entry by storing {@code state = FREE} and bumping the generation. Keys embed index and generation, so a stale key
 * never matches a reused entry. Readers trust nothing: a key whose entry is not VALID with the same generation, or a
 * range outside {@code [base, base + length)}, is refused.
 */
final class RegionTable {

    static final int MAGIC = 0x524d5254; // "RRMT"
    static final int VERSION = 3;
    static final int HEADER_LENGTH = 64;
    static final int ENTRY_LENGTH = 256;
    static final int MAX_PATH_BYTES = ENTRY_LENGTH - 40;
    /** 16,383 regions per device: three per connection (its two regions, its doorbell registration) and more. */
    static final int INDEX_BITS = 14;
    static final int ENTRIES = 1 << INDEX_BITS;
    /** The generation's bits above the index's, below the remote-key bit. */
    static final int GENERATION_MASK = (1 << (31 - INDEX_BITS)) - 1;
    static final int REMOTE_KEY_BIT = 0x8000_0000;
    static final long LENGTH = HEADER_LENGTH + (long) ENTRIES * ENTRY_LENGTH;

    static final int FREE = 0;
    static final int VALID = 1;

    private static final int GENERATION = 0;
    private static final int STATE = 4;
    private static final int ACCESS = 8;
    private static final int PATH_BYTES = 12;
    static final int BASE = 16;
    static final int REGION_LENGTH = 24;
    private static final int DOMAIN = 32;
    private static final int PATH = 40;

    private final AtomicBuffer buffer;

    RegionTable(final AtomicBuffer buffer) {
        this.buffer = buffer;
    }

    void initialise() {
        buffer.putInt(4, VERSION);
        buffer.putInt(8, ENTRIES);
        buffer.putIntVolatile(0, MAGIC);
    }

    /** @return true if the buffer holds a table this code understands */
    boolean isValid() {
        return buffer.capacity() >= LENGTH && buffer.getIntVolatile(0) == MAGIC && buffer.getInt(4) == VERSION
            && buffer.getInt(8) == ENTRIES;
    }

    static int localKey(final int index, final int generation) {
        return ((generation & GENERATION_MASK) << INDEX_BITS) | index;
    }

    static int remoteKey(final int index, final int generation) {
        return localKey(index, generation) | REMOTE_KEY_BIT;
    }

    static int indexOf(final int key) {
        return key & (ENTRIES - 1);
    }

    static int generationOf(final int key) {
        return (key >>> INDEX_BITS) & GENERATION_MASK;
    }

    static boolean isRemoteKey(final int key) {
        return (key & REMOTE_KEY_BIT) != 0;
    }

    static int offset(final int index) {
        return HEADER_LENGTH + index * ENTRY_LENGTH;
    }

    int generation(final int index) {
        return buffer.getIntVolatile(offset(index) + GENERATION) & GENERATION_MASK;
    }

    /**
     * Publishes an entry.
     *
     * @return the entry's generation
     */
    int publish(final int index, final int access, final long base, final long length, final String path,
                final int domain) {
        final int entry = offset(index);
        final byte[] pathBytes = path == null ? new byte[0] : path.getBytes(StandardCharsets.UTF_8);
        if (pathBytes.length > MAX_PATH_BYTES) {
            throw new IllegalArgumentException("the file path " + path + " is longer than " + MAX_PATH_BYTES
                + " bytes; map the memory from a shorter path");
        }
        final int generation = (buffer.getInt(entry + GENERATION) + 1) & GENERATION_MASK;
        buffer.putInt(entry + GENERATION, generation);
        buffer.putInt(entry + ACCESS, access);
        buffer.putInt(entry + DOMAIN, domain);
        buffer.putLong(entry + BASE, base);
        buffer.putLong(entry + REGION_LENGTH, length);
        buffer.putInt(entry + PATH_BYTES, pathBytes.length);
        buffer.putBytes(entry + PATH, pathBytes);
        buffer.putIntOrdered(entry + STATE, VALID);
        return generation;
    }

    /** Retires an entry: every key of it stops matching at once. */
    void retire(final int index) {
        final int entry = offset(index);
        buffer.putIntVolatile(entry + STATE, FREE);
        buffer.putIntVolatile(entry + GENERATION, (buffer.getInt(entry + GENERATION) + 1) & GENERATION_MASK);
    }

    /**
     * Checks a key and a range against the table.
     *
     * @return true if the key names a VALID entry of its generation that allows {@code required} access and holds
     * {@code [address, address + length)}
     */
    boolean check(final int key, final long address, final long length, final int required, final int domain) {
        return offset(key, address, length, required, domain) >= 0;
    }

    /**
     * Checks a range against a peer's entry and says where it starts in the region, reading the entry's base and
     * length once: the peer can rewrite its table at any time, so what was checked is what is used. Overflow-safe for
     * any values the peer wrote.
     *
     * @param domain the protection domain of the queue pair the access comes through
     * @return the range's offset in the region, or -1 if the key, its generation, the domain, the access or the
     *     bounds are wrong
     */
    long offset(final int key, final long address, final long length, final int required, final int domain) {
        final int entry = offset(indexOf(key));
        if (buffer.getIntVolatile(entry + STATE) != VALID
            || (buffer.getIntVolatile(entry + GENERATION) & GENERATION_MASK) != generationOf(key)) {
            return -1;
        }
        if ((buffer.getInt(entry + ACCESS) & required) != required || buffer.getInt(entry + DOMAIN) != domain) {
            return -1;
        }
        final long base = buffer.getLong(entry + BASE);
        final long regionLength = buffer.getLong(entry + REGION_LENGTH);
        if (length < 0 || regionLength < 0 || length > regionLength || address < base) {
            return -1;
        }
        final long offset = address - base;
        return offset < 0 || offset > regionLength - length ? -1 : offset; // negative: the subtraction overflowed
    }

    long base(final int index) {
        return buffer.getLong(offset(index) + BASE);
    }

    long length(final int index) {
        return buffer.getLong(offset(index) + REGION_LENGTH);
    }

    int access(final int index) {
        return buffer.getInt(offset(index) + ACCESS);
    }

    /** @return the file the region is mapped from, or null if it is not shareable (cold path: allocates) */
    String path(final int index) {
        final int entry = offset(index);
        final int bytes = buffer.getInt(entry + PATH_BYTES);
        if (bytes <= 0 || bytes > MAX_PATH_BYTES) {
            return null;
        }
        final byte[] path = new byte[bytes];
        buffer.getBytes(entry + PATH, path);
        return new String(path, StandardCharsets.UTF_8);
    }
}
