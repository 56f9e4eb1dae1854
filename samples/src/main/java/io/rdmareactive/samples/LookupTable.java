package io.rdmareactive.samples;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The open-addressing hash table of {@link RemoteLookup}, as laid out in the server's memory, and everything both
 * sides derive from a key.
 *
 * <p>The memory is a 64-byte header ({@code magic, capacity, probe bound, keys}) and then 64-byte slots. A slot holds
 * a key (0: empty), six value words and a checksum of the three. The key's home slot is a hash of it modulo the
 * capacity (a power of two); linear probing goes on from there to higher slots and never wraps, so the slots after
 * the last home slot are an overflow area. The table is built once, before it is served, and the longest probe of
 * any lookup (to the key, or to the empty slot that proves it absent) is measured then: that is the probe bound, and
 * the memory holds {@code capacity + probe bound} slots, so a lookup never needs a slot beyond its home slot plus the
 * bound. A client therefore reads a window of slots from the home slot, and at most once more the rest of the bound.
 *
 * <p>Keys: the {@code i}-th key is a bijection of {@code i + 1} onto {@code [1, 2^62)}, so distinct indices give
 * distinct non-zero, non-negative keys: indices {@code 0 .. keys-1} are in the table, indices from {@code keys} on are
 * certainly absent. A key's value words are a hash of the key, so either side can check a value it got.
 */
final class LookupTable {

    /** Bytes of a slot, and of the header. */
    static final int SLOT = 64;
    /** Value words in a slot. */
    static final int WORDS = 6;
    static final int KEY_AT = 0;
    static final int WORDS_AT = 8;
    static final int CHECKSUM_AT = 56;
    /** A scan found an empty slot: the key is absent. */
    static final int ABSENT = -1;
    /** A scan found neither the key nor an empty slot: the probe goes on past the slots scanned. */
    static final int GO_ON = -2;

    private static final long MAGIC = 0x5441424c45763031L; // "TABLEv01"
    private static final long MASK_62 = (1L << 62) - 1;

    private final int keys;
    private final int capacity;
    private final int probeBound;
    /** The key of each slot (0: empty), while building; null in a table read from its header. */
    private final long[] slots;

    private LookupTable(final int keys, final int capacity, final int probeBound, final long[] slots) {
        this.keys = keys;
        this.capacity = capacity;
        this.probeBound = probeBound;
        this.slots = slots;
    }

    /** Places keys {@code 0 .. keys-1} in a table of twice as many slots (rounded up to a power of two). */
    static LookupTable build(final int keys) {
        final int capacity = Integer.highestOneBit(Math.max(64, 2 * keys - 1)) << 1;
        final long[] slots = new long[capacity + keys + 1]; // room to overflow even if every key landed on one slot
        for (int index = 0; index < keys; index++) {
            final long key = key(index);
            int slot = home(key, capacity);
            while (slots[slot] != 0) {
                slot++;
            }
            slots[slot] = key;
        }
        // the longest probe from any home slot: its run of occupied slots, plus the empty one that ends it
        int longest = 0;
        int run = 0;
        for (int slot = slots.length - 1; slot >= 0; slot--) {
            run = slots[slot] == 0 ? 0 : run + 1;
            if (slot < capacity) {
                longest = Math.max(longest, run + 1);
            }
        }
        return new LookupTable(keys, capacity, longest, slots);
    }

    /**
     * @return the table that the header at the start of {@code buffer} describes
     * @throws IllegalStateException if it is not the header of a table
     */
    static LookupTable fromHeader(final DirectBuffer buffer, final int offset) {
        final long capacity = buffer.getLong(offset + 8);
        final long probeBound = buffer.getLong(offset + 16);
        final long keys = buffer.getLong(offset + 24);
        if (buffer.getLong(offset) != MAGIC || Long.bitCount(capacity) != 1 || capacity > 1 << 24 || keys <= 0
            || keys >= capacity || probeBound <= 0 || probeBound > keys + 1) {
            throw new IllegalStateException("not the header of a lookup table: capacity " + capacity + ", probe bound "
                + probeBound + ", keys " + keys);
        }
        return new LookupTable((int) keys, (int) capacity, (int) probeBound, null);
    }

    /** @return the bytes the table needs: its header, its slots and its overflow area */
    long bytes() {
        return SLOT + (long) (capacity + probeBound) * SLOT;
    }

    /** Writes the header and every slot into {@code buffer} (at least {@link #bytes()} long). */
    void writeTo(final MutableDirectBuffer buffer) {
        buffer.setMemory(0, (int) bytes(), (byte) 0);
        buffer.putLong(0, MAGIC);
        buffer.putLong(8, capacity);
        buffer.putLong(16, probeBound);
        buffer.putLong(24, keys);
        for (int slot = 0; slot < capacity + probeBound; slot++) {
            final long key = slots[slot];
            if (key != 0) {
                final int at = slotOffset(slot);
                buffer.putLong(at + KEY_AT, key);
                for (int word = 0; word < WORDS; word++) {
                    buffer.putLong(at + WORDS_AT + word * Long.BYTES, word(key, word));
                }
                buffer.putLong(at + CHECKSUM_AT, checksum(buffer, at));
            }
        }
    }

    /**
     * Looks {@code key} up in {@code count} consecutive slots of {@code buffer}, the first at {@code offset}.
     *
     * @return the index (from 0) of the key's slot among them, {@link #ABSENT} at an empty slot, else {@link #GO_ON}
     */
    static int scan(final DirectBuffer buffer, final int offset, final int count, final long key) {
        for (int i = 0; i < count; i++) {
            final long found = buffer.getLong(offset + i * SLOT + KEY_AT);
            if (found == key) {
                return i;
            }
            if (found == 0) {
                return ABSENT;
            }
        }
        return GO_ON;
    }

    /**
     * Checks the slot at {@code offset} of {@code buffer}, which holds {@code key}: its checksum and its value words.
     *
     * @return null if it is right, else what is wrong
     */
    static String check(final DirectBuffer buffer, final int offset, final long key) {
        if (buffer.getLong(offset + CHECKSUM_AT) != checksum(buffer, offset)) {
            return "the slot of key " + key + " fails its checksum";
        }
        for (int word = 0; word < WORDS; word++) {
            if (buffer.getLong(offset + WORDS_AT + word * Long.BYTES) != word(key, word)) {
                return "key " + key + " has a wrong value word " + word;
            }
        }
        return null;
    }

    /** @return null if {@code words} are the value words of {@code key}, else what is wrong */
    static String check(final long[] words, final long key) {
        if (words.length != WORDS) {
            return "key " + key + " came with " + words.length + " value words";
        }
        for (int word = 0; word < WORDS; word++) {
            if (words[word] != word(key, word)) {
                return "key " + key + " has a wrong value word " + word;
            }
        }
        return null;
    }

    /** @return the offset of slot {@code slot} in the table's memory */
    static int slotOffset(final int slot) {
        return SLOT + slot * SLOT;
    }

    /** @return the {@code index}-th key: a bijection of {@code index + 1} onto [1, 2^62) */
    static long key(final long index) {
        long x = (index + 1) & MASK_62;
        x = (x * 0x9E3779B97F4A7C15L) & MASK_62; // an odd factor: a bijection modulo 2^62
        x ^= x >>> 29; // a shift to the right: a bijection within 62 bits
        x = (x * 0xBF58476D1CE4E5B9L) & MASK_62;
        return x ^ (x >>> 31);
    }

    /** @return the home slot of {@code key} in a table of {@code capacity} slots */
    static int home(final long key, final int capacity) {
        return (int) (mix(key) & (capacity - 1));
    }

    /** @return word {@code word} of {@code key}'s value */
    static long word(final long key, final int word) {
        return mix(key + (word + 1) * 0x9E3779B97F4A7C15L);
    }

    /** @return a 64-bit mix (MurmurHash3's finalizer) */
    static long mix(final long value) {
        long x = value;
        x = (x ^ (x >>> 33)) * 0xFF51AFD7ED558CCDL;
        x = (x ^ (x >>> 33)) * 0xC4CEB9FE1A85EC53L;
        return x ^ (x >>> 33);
    }

    private static long checksum(final DirectBuffer buffer, final int offset) {
        long sum = mix(buffer.getLong(offset + KEY_AT));
        for (int word = 0; word < WORDS; word++) {
            sum = mix(sum ^ buffer.getLong(offset + WORDS_AT + word * Long.BYTES));
        }
        return sum;
    }

    int keys() {
        return keys;
    }

    int capacity() {
        return capacity;
    }

    /** @return the most slots any lookup examines, from its home slot */
    int probeBound() {
        return probeBound;
    }

    /** @return how many slots of the overflow area, after the last home slot, hold a key */
    int overflowUsed() {
        int used = 0;
        for (int slot = capacity; slot < slots.length; slot++) {
            used += slots[slot] == 0 ? 0 : 1;
        }
        return used;
    }
}
