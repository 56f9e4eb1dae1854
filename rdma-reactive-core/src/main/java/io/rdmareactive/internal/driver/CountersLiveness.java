package io.rdmareactive.internal.driver;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import reactor.util.Logger;
import reactor.util.Loggers;

/**
 * A driver's claim on its counters file: an exclusive lock on the liveness file beside it,
 * {@code <name>.counters.live} (mode 0600, holding the owner's process id as text), taken before the counters file
 * exists and given up after it is unlinked. The kernel drops the lock when the process ends, however it ends
 * ({@code kill -9} included), so a lock that can be taken means the owner is gone, even where its process id says
 * nothing (another PID namespace, a reused id).
 *
 * <p>The lock is a POSIX record lock, which belongs to the process and the file: closing <em>any</em> channel this
 * process has open on the liveness file drops it, whichever channel took it. So this process never opens a liveness
 * file it may hold: it keeps the ones it holds in {@link #HELD} (by the real path of the directory) and callers skip
 * files named after this process. A lock file apart from the counters file, rather than a lock on the counters file
 * itself, keeps readers that open the counters file (the {@link CountersReaderTool}, in the owning process too) from
 * dropping the lock when they close it.
 */
final class CountersLiveness implements AutoCloseable {

    /** Appended to the counters file's name. */
    static final String SUFFIX = ".live";

    /** The liveness files this process holds, by {@link #key(Path)}. */
    private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();
    /**
     * Channels opened on a liveness file that this JVM locked through another path (the JVM's lock table said so):
     * closing one would drop that lock, so they stay open.
     */
    private static final CopyOnWriteArrayList<FileChannel> UNCLOSABLE = new CopyOnWriteArrayList<>();
    private static final Logger LOG = Loggers.getLogger(CountersLiveness.class);
    private static final int CLAIM_ATTEMPTS = 5;

    private final Path file;
    private final Path key;
    private final Object fileKey;
    private final FileChannel channel;
    private final FileLock lock;
    private final boolean held;
    private boolean closed;

    private CountersLiveness(final Path file, final Path key, final Object fileKey, final FileChannel channel,
                             final FileLock lock, final boolean held) {
        this.file = file;
        this.key = key;
        this.fileKey = fileKey;
        this.channel = channel;
        this.lock = lock;
        this.held = held;
    }

    /** @return the liveness file of a counters file: its name with {@value #SUFFIX} appended */
    static Path of(final Path countersFile) {
        return countersFile.resolveSibling(countersFile.getFileName() + SUFFIX);
    }

    /** @return true if this process holds the liveness file (through whichever path to its directory) */
    static boolean heldHere(final Path liveness) {
        return HELD.contains(key(liveness));
    }

    /**
     * Claims a liveness file: creates it, or takes over one whose owner is gone, and locks it. A lock held by another
     * process a moment longer (one that removes the file of a gone owner holds it while it does) is tried again for a
     * few milliseconds.
     *
     * @return the claim; null if another process holds the lock
     * @throws IllegalStateException if this process holds it
     * @throws IOException           if it cannot be created or locked (a symbolic link in its place, for one)
     */
    static CountersLiveness claim(final Path liveness) throws IOException {
        final Path key = key(liveness);
        if (!HELD.add(key)) {
            throw new IllegalStateException(liveness + " is held by this process");
        }
        boolean claimed = false;
        try {
            for (int attempt = 1; ; attempt++) {
                final FileChannel channel = FileChannel.open(liveness, Set.of(StandardOpenOption.CREATE,
                    StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                final FileLock lock;
                try {
                    final Object opened = fileKey(liveness);
                    lock = tryLock(channel, false);
                    if (lock == null) {
                        channel.close(); // this process holds no lock on it (the JVM's lock table would have said)
                    } else if (opened != null && opened.equals(fileKey(liveness))) {
                        // the name still leads to the file locked: no one removed it between the open and the lock
                        channel.truncate(0);
                        channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n")
                            .getBytes(StandardCharsets.US_ASCII)), 0);
                        claimed = true;
                        return new CountersLiveness(liveness, key, opened, channel, lock, true);
                    } else {
                        lock.release();
                        channel.close();
                    }
                } catch (final IOException | RuntimeException | Error ex) {
                    if (!UNCLOSABLE.contains(channel)) {
                        channel.close();
                    }
                    throw ex;
                }
                if (attempt == CLAIM_ATTEMPTS) {
                    return null;
                }
                sleepMillis(attempt * 2L);
            }
        } finally {
            if (!claimed) {
                HELD.remove(key);
            }
        }
    }

    /**
     * Takes over the liveness file of an owner that is gone, for its removal: locks it if no one holds it.
     * {@link #close()} then removes it and unlocks.
     *
     * @return the lock; null if another process holds it, or the file is gone or is not a regular file
     * @throws IOException if it cannot be read
     */
    static CountersLiveness takeOver(final Path liveness) throws IOException {
        final Path key = key(liveness);
        if (HELD.contains(key)) {
            return null;
        }
        final FileChannel channel;
        try {
            channel = FileChannel.open(liveness, StandardOpenOption.READ, StandardOpenOption.WRITE,
                LinkOption.NOFOLLOW_LINKS);
        } catch (final NoSuchFileException ex) {
            return null;
        }
        try {
            final Object opened = fileKey(liveness);
            final FileLock lock = tryLock(channel, false);
            if (lock == null) {
                channel.close();
                return null;
            }
            if (opened == null || !opened.equals(fileKey(liveness))) {
                lock.release();
                channel.close();
                return null;
            }
            return new CountersLiveness(liveness, key, opened, channel, lock, false);
        } catch (final IOException | RuntimeException | Error ex) {
            if (!UNCLOSABLE.contains(channel)) {
                channel.close();
            }
            throw ex;
        }
    }

    /**
     * Whether another process holds a liveness file (a shared lock is tried, so read permission is enough).
     *
     * @return false only if the file is missing or its lock could be taken: when in doubt, held
     */
    static boolean heldElsewhere(final Path liveness) {
        if (heldHere(liveness)) {
            return false;
        }
        if (!Files.isRegularFile(liveness, LinkOption.NOFOLLOW_LINKS)) {
            return Files.exists(liveness, LinkOption.NOFOLLOW_LINKS); // a link or a directory in its place: in doubt
        }
        final FileChannel channel;
        try {
            channel = FileChannel.open(liveness, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
        } catch (final NoSuchFileException ex) {
            return false;
        } catch (final IOException | RuntimeException ex) {
            return true;
        }
        try {
            final FileLock lock = tryLock(channel, true);
            if (lock == null) {
                return true;
            }
            lock.release();
            return false;
        } catch (final IOException | RuntimeException ex) {
            return true;
        } finally {
            if (!UNCLOSABLE.contains(channel)) {
                try {
                    channel.close();
                } catch (final IOException ignored) {
                    // read only, and no lock left on it
                }
            }
        }
    }

    /** @return the lock, or null if another process holds it; a lock held in this JVM keeps the channel open */
    private static FileLock tryLock(final FileChannel channel, final boolean shared) throws IOException {
        try {
            return channel.tryLock(0, Long.MAX_VALUE, shared);
        } catch (final OverlappingFileLockException ex) {
            UNCLOSABLE.add(channel); // this JVM holds it through another path: closing this channel would drop it
            throw new IllegalStateException("the lock is held by this process", ex);
        }
    }

    /** @return the file's key (device and inode), or null if it is gone */
    private static Object fileKey(final Path file) throws IOException {
        try {
            return Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
        } catch (final NoSuchFileException ex) {
            return null;
        }
    }

    /** @return the file under its directory's real path, so that two paths to one directory give one key */
    private static Path key(final Path file) {
        final Path absolute = file.toAbsolutePath().normalize();
        try {
            return absolute.getParent().toRealPath().resolve(absolute.getFileName());
        } catch (final IOException ex) {
            return absolute;
        }
    }

    private static void sleepMillis(final long millis) {
        try {
            TimeUnit.MILLISECONDS.sleep(millis);
        } catch (final InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    /** @return the liveness file */
    Path file() {
        return file;
    }

    /** Removes the liveness file (if it is still the one locked), then unlocks it. Idempotent. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        try {
            if (Objects.equals(fileKey(file), fileKey)) {
                Files.deleteIfExists(file);
            }
        } catch (final IOException ex) {
            LOG.warn("cannot remove the counters liveness file {}: {}", file, ex.toString());
        } finally {
            try {
                lock.release();
                channel.close();
            } catch (final IOException ignored) {
                // the kernel drops the lock with the process anyway
            } finally {
                if (held) {
                    HELD.remove(key);
                }
            }
        }
    }
}
