package io.rdmareactive.ring;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Page-aligned off-heap memory that owns its lifetime: either allocated from an FFM {@link Arena} or mapped from
 * a file (which is how the shared-memory provider shares registered memory between processes).
 *
 * <p>The memory is reference counted. The creator holds the first reference and gives it up with {@link #close()};
 * anything that must keep the memory alive beyond that (a memory registration, work posted on it) takes a
 * {@link Lease} with {@link #acquire()}. The memory is freed (the arena closed, the mapping removed, the file
 * unlinked when this owner created it) only when the owner and every lease have let go, so nothing is freed while a
 * registration still uses it.
 *
 * <p>Thread safety: {@link #acquire()}, {@link Lease#close()} and {@link #close()} may be called from any thread.
 * Reading and writing the memory through {@link #segment()} or {@link #buffer()} is the caller's business, and is
 * valid until {@link #isFreed()}.
 */
public final class OffHeapMemory implements AutoCloseable {

    /** How {@link #mapFile(Path, long, FileMode)} treats the file. */
    public enum FileMode {
        /** Create the file (mode 0600), which must not exist yet; unlink it when the memory is freed. */
        CREATE_NEW,
        /** Map a file that another owner created; its length must be at least the requested length; never unlink it. */
        OPEN_EXISTING
    }

    private static final int PAGE_SIZE = PageSize.get();

    private final Arena arena;
    private final MemorySegment segment;
    private final UnsafeBuffer buffer;
    private final Path file;
    private final boolean unlinkOnFree;
    private final AtomicInteger references = new AtomicInteger(1);
    private volatile boolean closed;
    private volatile boolean freed;

    private OffHeapMemory(final Arena arena, final MemorySegment segment, final Path file, final boolean unlinkOnFree) {
        this.arena = arena;
        this.segment = segment;
        this.file = file;
        this.unlinkOnFree = unlinkOnFree;
        this.buffer = new UnsafeBuffer(segment.address(), Math.toIntExact(Math.min(segment.byteSize(), Integer.MAX_VALUE)));
    }

    /**
     * Allocates zeroed, page-aligned native memory.
     *
     * @param length bytes; a positive multiple of the page size ({@link PageSize#get()})
     * @return the owner of the new memory
     * @throws IllegalArgumentException if the length is not a positive page multiple
     */
    public static OffHeapMemory allocate(final long length) {
        PageSize.checkPageMultiple(length, "length");
        final Arena arena = Arena.ofShared();
        try {
            final MemorySegment segment = arena.allocate(length, PAGE_SIZE);
            return new OffHeapMemory(arena, segment, null, false);
        } catch (final OutOfMemoryError | RuntimeException ex) {
            arena.close();
            throw ex;
        }
    }

    /**
     * Maps a file into memory, shared with every other process that maps it.
     *
     * @param file   the file; with {@link FileMode#CREATE_NEW} it is created with mode 0600, written whole (so that its
     *               file system reserves its blocks now, and a lack of room is an error here rather than a SIGBUS when a
     *               page is first touched), and unlinked when the memory is freed
     * @param length bytes; a positive multiple of the page size
     * @param mode   whether to create the file or map an existing one
     * @return the owner of the mapping
     * @throws IllegalArgumentException if the length is not a positive page multiple, or an existing file is shorter
     * @throws UncheckedIOException     if the file cannot be created, sized or mapped; the message names the file
     */
    public static OffHeapMemory mapFile(final Path file, final long length, final FileMode mode) {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(mode, "mode");
        PageSize.checkPageMultiple(length, "length");
        final boolean create = mode == FileMode.CREATE_NEW;
        final Arena arena = Arena.ofShared();
        boolean created = false;
        try (FileChannel channel = create
            ? FileChannel.open(file, java.util.Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))
            : FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            created = create;
            if (create) {
                back(channel, file, length);
            } else if (channel.size() < length) {
                throw new IllegalArgumentException("file " + file + " holds " + channel.size() + " bytes, fewer than the "
                    + length + " to map");
            }
            final MemorySegment segment = channel.map(FileChannel.MapMode.READ_WRITE, 0, length, arena);
            return new OffHeapMemory(arena, segment, file, create);
        } catch (final FileAlreadyExistsException ex) {
            arena.close();
            throw new UncheckedIOException("cannot create " + file + ": the file already exists", ex);
        } catch (final NoSuchFileException ex) {
            arena.close();
            throw new UncheckedIOException(create
                ? "cannot create " + file + ": its directory " + file.toAbsolutePath().getParent() + " does not exist"
                : "cannot map " + file + ": no such file", ex);
        } catch (final IOException ex) {
            arena.close();
            deleteQuietly(created, file);
            throw new UncheckedIOException("cannot map " + length + " bytes of " + file + ": " + ex.getMessage(), ex);
        } catch (final RuntimeException | Error ex) {
            arena.close();
            deleteQuietly(created, file);
            throw ex;
        }
    }

    /** Zeros written to back a new file, shared read-only: each write takes a duplicate with a position of its own. */
    private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(1 << 16).asReadOnlyBuffer();

    /**
     * Writes the whole of a new file, so that its file system reserves every block now: on a tmpfs (such as
     * /dev/shm) a sparse file's pages are backed only when first touched, and a file system that is full by then
     * kills the thread that touches one with SIGBUS. A lack of room is an {@link IOException} here instead.
     */
    private static void back(final FileChannel channel, final Path file, final long length) throws IOException {
        // the length first: a length no file may have fails here at once, not after writing what fits
        channel.write(ByteBuffer.wrap(new byte[] {0}), length - 1);
        final long usable = Files.getFileStore(file).getUsableSpace();
        if (usable < length - 1) {
            throw new IOException("No space left on device: " + length + " bytes needed, " + usable + " free");
        }
        final ByteBuffer zeros = ZEROS.duplicate();
        long position = 0;
        while (position < length - 1) {
            zeros.clear().limit((int) Math.min(zeros.capacity(), length - 1 - position));
            position += channel.write(zeros, position);
        }
    }

    private static void deleteQuietly(final boolean created, final Path file) {
        if (created) {
            try {
                Files.deleteIfExists(file);
            } catch (final IOException ignored) {
                // best effort after a failed setup; the original error is what the caller needs to see
            }
        }
    }

    /** @return the memory as an FFM segment; valid until {@link #isFreed()} */
    public MemorySegment segment() {
        return segment;
    }

    /**
     * @return an Agrona buffer over the whole memory (at most {@link Integer#MAX_VALUE} bytes of it); the same
     * instance every time
     */
    public AtomicBuffer buffer() {
        return buffer;
    }

    /**
     * @param offset where the view starts
     * @param length bytes in the view
     * @return a new Agrona buffer over {@code [offset, offset + length)} of this memory
     */
    public AtomicBuffer buffer(final long offset, final int length) {
        Objects.checkFromIndexSize(offset, length, segment.byteSize());
        return new UnsafeBuffer(segment.address() + offset, length);
    }

    /** @return the virtual address of the first byte */
    public long address() {
        return segment.address();
    }

    /** @return the length in bytes, a page multiple */
    public long length() {
        return segment.byteSize();
    }

    /** @return the file this memory is mapped from, if it is */
    public Optional<Path> file() {
        return Optional.ofNullable(file);
    }

    /**
     * Takes a reference that keeps the memory alive until the lease is closed.
     *
     * @return a lease; close it exactly once
     * @throws IllegalStateException if the memory is already closed by its owner
     */
    public Lease acquire() {
        while (true) {
            final int current = references.get();
            if (current <= 0 || closed) {
                throw new IllegalStateException("memory " + describe() + " is closed; it cannot be leased");
            }
            if (references.compareAndSet(current, current + 1)) {
                return new Lease();
            }
        }
    }

    /** @return the number of live references: the owner's (until {@link #close()}) plus open leases */
    public int references() {
        return Math.max(0, references.get());
    }

    /** @return true once {@link #close()} was called, even if leases still keep the memory alive */
    public boolean isClosed() {
        return closed;
    }

    /** @return true once the memory is freed; it must not be touched after that */
    public boolean isFreed() {
        return freed;
    }

    /** Gives up the owner's reference; frees the memory now, or when the last lease is closed. Idempotent. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        release();
    }

    private void release() {
        if (references.decrementAndGet() == 0) {
            free();
        }
    }

    private void free() {
        freed = true;
        arena.close();
        if (unlinkOnFree) {
            try {
                Files.deleteIfExists(file);
            } catch (final IOException ex) {
                throw new UncheckedIOException("cannot unlink " + file + " after unmapping it", ex);
            }
        }
    }

    private String describe() {
        return file != null ? file.toString() : "0x" + Long.toHexString(segment.address()) + "+" + segment.byteSize();
    }

    @Override
    public String toString() {
        return "OffHeapMemory{" + describe() + ", references=" + references() + (freed ? ", freed" : "") + '}';
    }

    /** A reference to the memory, held by whoever must keep it alive (a registration, outstanding work). */
    public final class Lease implements AutoCloseable {
        private final AtomicInteger open = new AtomicInteger(1);

        private Lease() {
        }

        /** @return the memory this lease keeps alive */
        public OffHeapMemory memory() {
            return OffHeapMemory.this;
        }

        /** Lets go of the memory; idempotent. */
        @Override
        public void close() {
            if (open.compareAndSet(1, 0)) {
                release();
            }
        }
    }
}
