package io.rdmareactive.internal.driver;

import io.rdmareactive.ring.FileNames;
import io.rdmareactive.ring.OffHeapMemory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.agrona.collections.IntHashSet;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.CountersManager;
import org.agrona.concurrent.status.CountersReader;
import reactor.util.Logger;
import reactor.util.Loggers;

/**
 * The driver's counters, kept in a memory-mapped file {@code <directory>/<name>.counters} (mode 0600) so that another
 * process can watch them while this one runs: {@code java ... io.rdmareactive.internal.driver.CountersReaderTool
 * <file>} prints every counter as {@code label = value}. The file holds a small header (see {@link CountersLayout})
 * and Agrona's counters metadata and values buffers, as Aeron's CnC file does.
 *
 * <h2>What is counted</h2>
 * Seven system counters (type id {@link #SYSTEM_TYPE_ID}) exist for the whole life of the file:
 * {@link #messagesSent()}, {@link #messagesReceived()}, {@link #bytesSent()}, {@link #bytesReceived()},
 * {@link #backPressureEvents()}, {@link #creditStalls()} and {@link #errors()}. Per-connection and per-stream
 * counters come and go with {@link #newCounter(String, int)}; closing the returned counter frees its slot, which is
 * reused no sooner than {@value #FREE_TO_REUSE_TIMEOUT_MS}&nbsp;ms later (so a reader that looked the slot up a
 * moment ago does not read a stranger's value under the old label).
 *
 * <h2>Threads and the hot path</h2>
 * Counting is lock-free and allocates nothing: keep the {@link AtomicCounter} in a final field and call
 * {@link AtomicCounter#increment()}, {@link AtomicCounter#incrementRelease()} or
 * {@link AtomicCounter#getAndAddRelease(long)} (the release forms suffice where one thread writes a counter, and are
 * cheaper). Allocating and freeing counters takes a lock and may be done from any thread; it is setup work.
 *
 * <h2>Lifetime</h2>
 * {@link #close()} unlinks the file and gives up this object's hold on the mapping; the memory is unmapped once every
 * {@linkplain #retain() lease} is closed too. A runtime's event loops hold such a lease while they run, so
 * closing the counters before the runner is safe. Anything else that increments counters must stop before the
 * counters are closed: writing a counter after its memory is unmapped crashes the JVM. Per-connection counters closed
 * after this object are closed without touching the memory.
 *
 * <h2>A file left behind</h2>
 * While the counters are open, the driver holds a lock on the liveness file beside them,
 * {@code <name>.counters.live} (see {@link CountersLiveness}); {@link #close()} removes both. If the process ends
 * without closing them (it is killed, crashes, or exits without disposing its runtime), the two files stay, and the
 * kernel drops the lock. They are removed by the next driver that finds them: {@link #create} with the same name
 * replaces a file whose owner is gone, and {@link #removeAbandoned(Path, Pattern)} (which every new runtime calls on
 * its directory) removes the files of every owner that is gone. An owner is gone when its process (the id and start
 * time in the header) does not run here and no one holds the lock, so a driver in another PID namespace that shares the
 * directory keeps its files. Nothing in the owning process may open the liveness file: closing it would drop the lock
 * (a POSIX lock belongs to the process); reading the counters file is harmless.
 */
public final class DriverCounters implements AutoCloseable {

    /** The type id of the eight system counters; {@link #newCounter(String, int)} does not accept it. */
    public static final int SYSTEM_TYPE_ID = 0;

    /** How many counters {@link #create(Path, String)} makes room for. */
    public static final int DEFAULT_MAX_COUNTERS = 1024;

    /** How long a freed counter's slot stays unused before it is reused, in milliseconds. */
    public static final long FREE_TO_REUSE_TIMEOUT_MS = 1_000;

    static final String MESSAGES_SENT = "messages sent";
    static final String MESSAGES_RECEIVED = "messages received";
    static final String BYTES_SENT = "bytes sent";
    static final String BYTES_RECEIVED = "bytes received";
    static final String BACK_PRESSURE_EVENTS = "back-pressure events";
    static final String CREDIT_STALLS = "credit stalls";
    static final String ERRORS = "errors";
    static final String LOOP_STALLS = "loop stalls";
    private static final String[] SYSTEM_LABELS = {
        MESSAGES_SENT, MESSAGES_RECEIVED, BYTES_SENT, BYTES_RECEIVED, BACK_PRESSURE_EVENTS, CREDIT_STALLS, ERRORS,
        LOOP_STALLS};

    /** A temporary file of {@link #create}: {@code .<name>.counters.<pid>.<hex>.tmp}. */
    private static final Pattern TEMPORARY = Pattern.compile(
        "\\.(" + FileNames.REGEX + ")\\.counters\\.[0-9]{1,19}\\.[0-9a-f]{1,8}\\.tmp");
    private static final Logger LOG = Loggers.getLogger(DriverCounters.class);

    private final String name;
    private final Path file;
    private final Object fileKey;
    private final OffHeapMemory memory;
    private final CountersManager manager;
    private final CountersReader reader;
    private final AtomicBuffer valuesBuffer;
    private final AtomicCounter[] system = new AtomicCounter[SYSTEM_LABELS.length];
    private final IntHashSet open = new IntHashSet();
    private final CountersLiveness liveness;
    private boolean closed;

    private DriverCounters(final String name, final Path file, final Object fileKey, final CountersLiveness liveness,
                           final OffHeapMemory memory, final AtomicBuffer metadataBuffer,
                           final AtomicBuffer valuesBuffer, final CountersManager manager, final int[] systemIds) {
        this.name = name;
        this.file = file;
        this.fileKey = fileKey;
        this.liveness = liveness;
        this.memory = memory;
        this.manager = manager;
        this.valuesBuffer = valuesBuffer;
        this.reader = new CountersReader(metadataBuffer, valuesBuffer, StandardCharsets.UTF_8);
        for (int i = 0; i < systemIds.length; i++) {
            system[i] = new AtomicCounter(valuesBuffer, systemIds[i]); // no manager: closing it frees nothing
        }
    }

    /**
     * Creates {@code <directory>/<name>.counters} with room for {@value #DEFAULT_MAX_COUNTERS} counters.
     *
     * @see #create(Path, String, int)
     */
    public static DriverCounters create(final Path directory, final String name) {
        return create(directory, name, DEFAULT_MAX_COUNTERS);
    }

    /**
     * Creates {@code <directory>/<name>.counters} (mode 0600; the directory is created with mode 0700 if it is
     * missing) and the eight system counters in it.
     *
     * @param directory   where the file goes, e.g. the shared-memory provider's directory
     * @param name        the driver's name, a {@link FileNames name}
     * @param maxCounters room for this many counters, system ones included: 8 to 65536 (each takes 640 bytes of the
     *                    file)
     * @return the counters, which own the file until {@link #close()}
     * @throws IllegalArgumentException if the name or the capacity is out of range
     * @throws IllegalStateException    if the file exists and belongs to a live process (this one included), or is
     *                                  not a counters file
     * @throws UncheckedIOException     if the directory or the file cannot be created; the message names them
     */
    public static DriverCounters create(final Path directory, final String name, final int maxCounters) {
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(name, "name");
        FileNames.requireName(name, "a driver name");
        if (maxCounters < SYSTEM_LABELS.length + 1 || maxCounters > CountersLayout.MAX_COUNTERS) {
            throw new IllegalArgumentException("maxCounters must be from " + (SYSTEM_LABELS.length + 1) + " to "
                + CountersLayout.MAX_COUNTERS + ", not " + maxCounters);
        }
        final Path dir = directory.toAbsolutePath().normalize();
        createDirectory(dir);
        final Path file = file(dir, name);
        final CountersLiveness liveness = claimLiveness(file);
        try {
            removeIfAbandoned(file);
            return create(dir, name, file, liveness, maxCounters);
        } catch (final RuntimeException | Error ex) {
            liveness.close();
            throw ex;
        }
    }

    /** Takes the lock of the counters file {@code file}, or refuses: its owner runs (this process, or another). */
    private static CountersLiveness claimLiveness(final Path file) {
        final Path livenessFile = CountersLiveness.of(file);
        if (CountersLiveness.heldHere(livenessFile)) {
            throw inUse(file, "this process");
        }
        final CountersLiveness liveness;
        try {
            liveness = CountersLiveness.claim(livenessFile);
        } catch (final IllegalStateException ex) {
            throw inUse(file, "this process");
        } catch (final IOException ex) {
            throw new UncheckedIOException("cannot create the counters liveness file " + livenessFile + ": " + ex
                + (Files.isSymbolicLink(livenessFile) ? " (it is a symbolic link; remove it)" : ""), ex);
        }
        if (liveness == null) {
            throw inUse(file, "another process, which holds the lock of " + livenessFile);
        }
        return liveness;
    }

    private static IllegalStateException inUse(final Path file, final String owner) {
        return new IllegalStateException("the counters file " + file + " is in use by " + owner
            + "; give each driver its own name, or stop the other one");
    }

    private static DriverCounters create(final Path dir, final String name, final Path file,
                                         final CountersLiveness liveness, final int maxCounters) {
        final long length = CountersLayout.fileLength(maxCounters);
        final Path temporary = dir.resolve("." + name + CountersLayout.SUFFIX + "." + ProcessHandle.current().pid()
            + "." + Integer.toHexString(ThreadLocalRandom.current().nextInt()) + ".tmp");
        final OffHeapMemory memory = OffHeapMemory.mapFile(temporary, length, OffHeapMemory.FileMode.CREATE_NEW);
        boolean published = false;
        try {
            final AtomicBuffer header = memory.buffer(0, CountersLayout.HEADER_LENGTH);
            final int metadataLength = CountersLayout.metadataLength(maxCounters);
            final int valuesLength = CountersLayout.valuesLength(maxCounters);
            final AtomicBuffer metadataBuffer = memory.buffer(CountersLayout.HEADER_LENGTH, metadataLength);
            final AtomicBuffer valuesBuffer = memory.buffer(CountersLayout.HEADER_LENGTH + (long) metadataLength,
                valuesLength);
            header.putInt(CountersLayout.VERSION_OFFSET, CountersLayout.VERSION);
            header.putInt(CountersLayout.METADATA_LENGTH_OFFSET, metadataLength);
            header.putInt(CountersLayout.VALUES_LENGTH_OFFSET, valuesLength);
            header.putLong(CountersLayout.OWNER_PID_OFFSET, ProcessHandle.current().pid());
            header.putLong(CountersLayout.OWNER_START_OFFSET, startMillis(ProcessHandle.current()).orElse(-1L));
            header.putLong(CountersLayout.CREATED_OFFSET, System.currentTimeMillis());
            header.putIntRelease(CountersLayout.MAGIC_OFFSET, CountersLayout.MAGIC);

            final CountersManager manager = new CountersManager(metadataBuffer, valuesBuffer, StandardCharsets.UTF_8,
                SystemEpochClock.INSTANCE, FREE_TO_REUSE_TIMEOUT_MS);
            final int[] systemIds = new int[SYSTEM_LABELS.length];
            for (int i = 0; i < SYSTEM_LABELS.length; i++) {
                systemIds[i] = manager.allocate(SYSTEM_LABELS[i], SYSTEM_TYPE_ID);
            }
            publish(temporary, file);
            published = true;
            final Object fileKey = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
                .fileKey();
            return new DriverCounters(name, file, fileKey, liveness, memory, metadataBuffer, valuesBuffer, manager,
                systemIds);
        } catch (final IOException ex) {
            memory.close();
            if (published) {
                deleteQuietly(file);
            }
            throw new UncheckedIOException("cannot create the counters file " + file + ": " + ex, ex);
        } catch (final RuntimeException | Error ex) {
            memory.close();
            if (published) {
                deleteQuietly(file);
            }
            throw ex;
        } finally {
            deleteQuietly(temporary);
        }
    }

    /**
     * @param directory the directory given to {@link #create}
     * @param name      the driver's name
     * @return the counters file of that driver
     */
    public static Path file(final Path directory, final String name) {
        return directory.resolve(name + CountersLayout.SUFFIX);
    }

    /** @return the driver name the file is named after */
    public String name() {
        return name;
    }

    /** @return the counters file (unlinked once {@link #close()} is called) */
    public Path file() {
        return file;
    }

    /** @return messages handed to the transport */
    public AtomicCounter messagesSent() {
        return system[0];
    }

    /** @return messages delivered to the inbound rings */
    public AtomicCounter messagesReceived() {
        return system[1];
    }

    /** @return payload bytes handed to the transport */
    public AtomicCounter bytesSent() {
        return system[2];
    }

    /** @return payload bytes delivered to the inbound rings */
    public AtomicCounter bytesReceived() {
        return system[3];
    }

    /** @return times a send found its ring full */
    public AtomicCounter backPressureEvents() {
        return system[4];
    }

    /** @return times a sender had data but no credit */
    public AtomicCounter creditStalls() {
        return system[5];
    }

    /** @return errors caught by the event loops (see {@link EventLoopGroup}) */
    public AtomicCounter errors() {
        return system[6];
    }

    /**
     * @return times a stream's subscriber or handler held its event loop longer than the stall threshold (the loop
     *     polled none of its connections meanwhile)
     */
    public AtomicCounter loopStalls() {
        return system[7];
    }

    /**
     * Reads the eight system counters, in the order of their accessors ({@link #messagesSent()} first,
     * {@link #errors()} last), safely against a concurrent {@link #close()}.
     *
     * @param values where the values go; at least eight long
     * @return false (and {@code values} untouched) if the counters are closed
     */
    public boolean readSystem(final long[] values) {
        synchronized (this) {
            if (closed) {
                return false;
            }
            for (int i = 0; i < system.length; i++) {
                values[i] = system[i].get();
            }
            return true;
        }
    }

    /**
     * Allocates a counter, e.g. one per connection, with the value 0. Close it to free its slot.
     *
     * @param label  what the counter counts, e.g. {@code "bytes sent: connection 7 (host:port)"}; at most 380 bytes
     *               of UTF-8 are kept
     * @param typeId what kind of counter it is, for readers that filter; any value but {@link #SYSTEM_TYPE_ID}
     * @return the counter
     * @throws IllegalArgumentException if {@code typeId} is {@link #SYSTEM_TYPE_ID}
     * @throws IllegalStateException    if the file is full, or the counters are closed
     */
    public AtomicCounter newCounter(final String label, final int typeId) {
        Objects.requireNonNull(label, "label");
        if (typeId == SYSTEM_TYPE_ID) {
            throw new IllegalArgumentException("type id " + SYSTEM_TYPE_ID + " belongs to the system counters");
        }
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("the counters " + file + " are closed");
            }
            final int id;
            try {
                id = manager.allocate(label, typeId);
            } catch (final IllegalStateException ex) {
                throw new IllegalStateException("the counters file " + file + " is full: all "
                    + (manager.maxCounterId() + 1) + " counters are in use or were freed less than "
                    + FREE_TO_REUSE_TIMEOUT_MS + " ms ago; create it with a larger maxCounters", ex);
            }
            open.add(id);
            return new FreeingCounter(valuesBuffer, id);
        }
    }

    /** @return counters that could be allocated now */
    public int available() {
        synchronized (this) {
            return closed ? 0 : manager.available();
        }
    }

    /**
     * @return a reader over this process's counters (the same view {@link CountersReaderTool} has from outside);
     *     valid until the memory is unmapped
     */
    public CountersReader reader() {
        return reader;
    }

    /**
     * Keeps the mapping alive until the lease is closed, even past {@link #close()}.
     *
     * @return a lease to close exactly once
     * @throws IllegalStateException if the counters are closed already
     */
    OffHeapMemory.Lease retain() {
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("the counters " + file + " are closed");
            }
            return memory.acquire();
        }
    }

    /** @return true once {@link #close()} was called */
    public boolean isClosed() {
        synchronized (this) {
            return closed;
        }
    }

    /**
     * Unlinks the file (if it is still this object's), then its liveness file, and releases the mapping, which is
     * unmapped once every lease is closed. Idempotent.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            open.clear();
        }
        try {
            final BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class,
                LinkOption.NOFOLLOW_LINKS);
            if (Objects.equals(attributes.fileKey(), fileKey)) {
                Files.delete(file);
            }
        } catch (final NoSuchFileException ignored) {
            // someone removed it already
        } catch (final IOException ex) {
            LOG.warn("cannot remove the counters file {}: {}", file, ex.toString());
        } finally {
            try {
                liveness.close(); // after the counters file: a file without its lock would look abandoned
            } finally {
                memory.close();
            }
        }
    }

    @Override
    public String toString() {
        return "DriverCounters{" + file + (isClosed() ? ", closed" : "") + '}';
    }

    private void free(final int id) {
        synchronized (this) {
            if (!closed && open.remove(id)) {
                manager.free(id);
            }
        }
    }

    /** A counter from {@link #newCounter}: closing it frees its slot, unless the counters are closed already. */
    private final class FreeingCounter extends AtomicCounter {
        FreeingCounter(final AtomicBuffer valuesBuffer, final int id) {
            super(valuesBuffer, id);
        }

        @Override
        public void close() {
            if (!isClosed()) {
                super.close();
                free(id());
            }
        }
    }

    private static void createDirectory(final Path dir) {
        if (Files.isDirectory(dir)) {
            return;
        }
        try {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(
                "rwx------")));
        } catch (final IOException | UnsupportedOperationException ex) {
            throw new UncheckedIOException("cannot create the counters directory " + dir + ": " + ex,
                ex instanceof IOException io ? io : new IOException(ex));
        }
    }

    /** Links the complete temporary file into place: atomic, and fails if the name exists. */
    private static void publish(final Path temporary, final Path file) throws IOException {
        try {
            Files.createLink(file, temporary);
        } catch (final FileAlreadyExistsException ex) {
            throw new IllegalStateException("the counters file " + file + " was created by another driver of the "
                + "same name a moment ago; give each driver its own name", ex);
        } catch (final UnsupportedOperationException ex) {
            Files.move(temporary, file); // no hard links on this file system: fails if the file exists
        }
    }

    /**
     * Removes {@code file} if it is a counters file whose owner process is gone; refuses if it is in use or is not a
     * counters file. The caller holds the file's liveness lock: an owner of this version would hold it.
     */
    private static void removeIfAbandoned(final Path file) {
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new IllegalStateException(file + " exists and is not a regular file; remove it or choose another "
                + "driver name");
        }
        final long[] owner;
        try {
            owner = readOwner(file);
        } catch (final NoSuchFileException ex) {
            return;
        } catch (final IOException ex) {
            throw new UncheckedIOException("cannot read the existing counters file " + file + ": " + ex, ex);
        }
        if (owner == null) {
            throw new IllegalStateException(file + " exists and is not an rdma-reactive counters file; remove it or "
                + "choose another driver name");
        }
        final long pid = owner[0];
        if (isAlive(pid, owner[1])) {
            throw inUse(file, pid == ProcessHandle.current().pid() ? "this process" : "process " + pid);
        }
        try {
            Files.deleteIfExists(file);
            LOG.info("removed the counters file {} of process {}, which is gone", file, pid);
        } catch (final IOException ex) {
            throw new UncheckedIOException("cannot remove the abandoned counters file " + file + ": " + ex, ex);
        }
    }

    /**
     * @param file a regular file
     * @return the owner's process id and start time (ms since the epoch, or -1) from the header; null if the file is
     *     not a counters file
     */
    private static long[] readOwner(final Path file) throws IOException {
        final ByteBuffer bytes = ByteBuffer.allocate(CountersLayout.HEADER_LENGTH).order(ByteOrder.nativeOrder());
        final long size;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            size = channel.size();
            while (bytes.hasRemaining() && channel.read(bytes) >= 0) {
                // read the header
            }
        }
        final UnsafeBuffer header = new UnsafeBuffer(bytes.array());
        if (size < CountersLayout.HEADER_LENGTH || header.getInt(CountersLayout.MAGIC_OFFSET) != CountersLayout.MAGIC) {
            return null;
        }
        return new long[] {header.getLong(CountersLayout.OWNER_PID_OFFSET),
            header.getLong(CountersLayout.OWNER_START_OFFSET)};
    }

    /**
     * Removes the counters files in {@code directory} whose owners are gone, with their liveness and temporary files:
     * those of the drivers named by {@code names} (a pattern with a group {@code pid}, the owner's process id), other
     * than this process's, whose process does not run (its id and start time, from the header) and whose liveness
     * lock no one holds. Everything else is left alone: files of live owners, files by other names, files named like
     * counters files that are not (no magic number, or another owner in the header), and symbolic links, directories
     * and other files that are not regular files, which are neither followed nor removed. Never throws: a file that
     * cannot be read or removed is left, and logged.
     *
     * @param directory a counters directory
     * @param names     the names of the drivers whose files may be removed, with a group {@code pid}
     * @return the files removed
     */
    public static List<Path> removeAbandoned(final Path directory, final Pattern names) {
        final Path dir = directory.toAbsolutePath().normalize();
        final Map<String, List<Path>> byName = new TreeMap<>();
        try (Stream<Path> listing = Files.list(dir)) {
            listing.forEach(path -> {
                final String driver = driverName(path.getFileName().toString());
                if (driver != null && names.matcher(driver).matches()) {
                    byName.computeIfAbsent(driver, ignored -> new ArrayList<>()).add(path);
                }
            });
        } catch (final IOException | UncheckedIOException | SecurityException ex) {
            LOG.warn("cannot list {} to remove the counters files of processes that are gone: {}", dir,
                ex.toString());
            return List.of();
        }
        final long self = ProcessHandle.current().pid();
        final List<Path> removed = new ArrayList<>();
        byName.forEach((driver, files) -> {
            final Matcher name = names.matcher(driver);
            try {
                final long pid = name.matches() ? Long.parseLong(name.group("pid")) : self;
                if (pid != self) {
                    removed.addAll(removeIfAbandoned(dir, driver, pid, files));
                }
            } catch (final IOException | RuntimeException ex) {
                LOG.warn("left the counters files of {} in {}: {}", driver, dir, ex.toString());
            }
        });
        return removed;
    }

    /** @return the driver's name of a counters file, its liveness file or its temporary file; null for other files */
    private static String driverName(final String fileName) {
        final String live = CountersLayout.SUFFIX + CountersLiveness.SUFFIX;
        if (fileName.endsWith(live) && fileName.length() > live.length()) {
            return fileName.substring(0, fileName.length() - live.length());
        }
        if (fileName.endsWith(CountersLayout.SUFFIX) && fileName.length() > CountersLayout.SUFFIX.length()) {
            return fileName.substring(0, fileName.length() - CountersLayout.SUFFIX.length());
        }
        final Matcher temporary = TEMPORARY.matcher(fileName);
        return temporary.matches() ? temporary.group(1) : null;
    }

    /** The files of one driver whose owner {@code pid} is not this process: removed if it is gone. */
    private static List<Path> removeIfAbandoned(final Path dir, final String driver, final long pid,
                                                final List<Path> files) throws IOException {
        for (final Path path : files) {
            if (!Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
                return List.of(); // a link, a directory, a pipe: not a file of ours; neither followed nor removed
            }
        }
        final Path counters = file(dir, driver);
        final Path livenessFile = CountersLiveness.of(counters);
        if (CountersLiveness.heldHere(livenessFile)) {
            return List.of();
        }
        if (Files.exists(counters, LinkOption.NOFOLLOW_LINKS)) {
            final long[] owner = readOwner(counters);
            if (owner == null || owner[0] != pid || isAlive(pid, owner[1])) {
                return List.of(); // not a counters file of that process, or it runs
            }
        } else if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            return List.of();
        }
        CountersLiveness takenOver = null;
        if (Files.exists(livenessFile, LinkOption.NOFOLLOW_LINKS)) {
            takenOver = CountersLiveness.takeOver(livenessFile);
            if (takenOver == null) {
                return List.of(); // its lock is held: the owner runs where its process id does not show
            }
        }
        final List<Path> removed = new ArrayList<>();
        try {
            for (final Path path : files) { // the counters file and temporary ones; the liveness file last
                if (!path.equals(livenessFile) && Files.deleteIfExists(path)) {
                    removed.add(path);
                }
            }
        } finally {
            if (takenOver != null) {
                takenOver.close();
                if (!Files.exists(livenessFile, LinkOption.NOFOLLOW_LINKS)) {
                    removed.add(livenessFile);
                }
            }
        }
        LOG.info("removed the counters files of {} in {} (process {}, which is gone): {} file(s)", driver, dir, pid,
            removed.size());
        return removed;
    }

    /**
     * Whether the owner of a counters file runs: this process holds it, its process (id and start time) runs here,
     * or another process holds its liveness lock (one in another PID namespace, say).
     *
     * @param file        the counters file
     * @param pid         the owner's process id, from the header
     * @param startMillis the owner's start time, from the header, or -1
     * @return false only if the owner is surely gone
     */
    static boolean ownerRuns(final Path file, final long pid, final long startMillis) {
        final Path livenessFile = CountersLiveness.of(file.toAbsolutePath());
        return CountersLiveness.heldHere(livenessFile) || isAlive(pid, startMillis)
            || CountersLiveness.heldElsewhere(livenessFile);
    }

    /** @return true if process {@code pid} runs and (where both are known) started at {@code startMillis} */
    static boolean isAlive(final long pid, final long startMillis) {
        final Optional<ProcessHandle> process = ProcessHandle.of(pid);
        if (process.isEmpty() || !process.get().isAlive()) {
            return false;
        }
        final Optional<Long> started = startMillis(process.get());
        // a second of slack: both sides read the same kernel start time, but rounding must never call a live owner dead
        return startMillis < 0 || started.isEmpty() || Math.abs(started.get() - startMillis) <= 1_000;
    }

    private static Optional<Long> startMillis(final ProcessHandle process) {
        return process.info().startInstant().map(Instant::toEpochMilli);
    }

    private static void deleteQuietly(final Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (final IOException ignored) {
            // best effort, after a failure that the caller hears about
        }
    }
}
