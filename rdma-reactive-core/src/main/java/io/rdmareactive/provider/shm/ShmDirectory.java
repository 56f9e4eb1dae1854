package io.rdmareactive.provider.shm;

import io.rdmareactive.ring.FileNames;
import io.rdmareactive.ring.OffHeapMemory;
import io.rdmareactive.ring.PrivateDirectory;
import io.rdmareactive.spi.RdmaException;
import io.rdmareactive.spi.RegistrationLimitException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import reactor.util.Logger;
import reactor.util.Loggers;

/**
 * The directory where a shared-memory device keeps its files: registered memory, completion queues, queue pairs,
 * the region table and listening sockets. Mode 0700, owned by the user; every file in it mode 0600.
 *
 * <p>File names start with the owning device's id, {@code <pid>-<random>}; each live device holds a lock on its
 * {@code <id>.live} file, so that files of dead processes can be recognised and removed safely when a device opens.
 */
final class ShmDirectory {

    /** sun_path holds 108 bytes including the terminating NUL. */
    static final int MAX_SOCKET_PATH_BYTES = 107;

    private static final Pattern DEVICE_ID = Pattern.compile("[0-9]{1,10}-[0-9a-f]{8}");
    private static final Logger LOG = Loggers.getLogger(ShmDirectory.class);

    private final Path path;

    private ShmDirectory(final Path path) {
        this.path = path;
    }

    /** Numbers the probe files of this process. */
    private static final java.util.concurrent.atomic.AtomicLong PROBES = new java.util.concurrent.atomic.AtomicLong();

    /**
     * Creates the directory (mode 0700) if needed and checks that this user owns it and can create files in it.
     *
     * @throws RdmaException naming the directory, what is wrong and what to do
     */
    static ShmDirectory open(final Path requested) {
        final Path path;
        try {
            path = PrivateDirectory.open(requested, "the shared-memory directory",
                "choose a writable directory (RdmaClient.directory, RdmaServer.directory or "
                    + "RdmaRuntime.Builder.directory; DeviceOptions.directory through the SPI)");
        } catch (final IllegalStateException ex) {
            throw new RdmaException(ex.getMessage(), ex.getCause() != null ? ex.getCause() : ex);
        }
        // a name of its own: devices of one process may open here at the same time (each deletes only its probe)
        final Path probe = path.resolve(".probe-" + ProcessHandle.current().pid() + "-" + PROBES.incrementAndGet());
        try {
            Files.deleteIfExists(probe);
            Files.createFile(probe);
            Files.delete(probe);
        } catch (final IOException ex) {
            throw new RdmaException("cannot create files in the shared-memory directory " + path + ": " + reason(ex)
                + "; choose a writable directory (RdmaClient.directory, RdmaServer.directory or "
                + "RdmaRuntime.Builder.directory; DeviceOptions.directory through the SPI)", ex);
        }
        return new ShmDirectory(path);
    }

    private static String reason(final IOException ex) {
        return PrivateDirectory.reason(ex);
    }

    Path path() {
        return path;
    }

    Path regionTable(final String deviceId) {
        return path.resolve(checked(deviceId) + ".mrt");
    }

    Path completionQueue(final String deviceId, final int id) {
        return path.resolve(checked(deviceId) + ".cq" + id);
    }

    Path queuePair(final String deviceId, final int number) {
        return path.resolve(checked(deviceId) + ".qp" + number);
    }

    Path region(final String deviceId, final int index) {
        return path.resolve(checked(deviceId) + ".mr" + index);
    }

    /**
     * A device id goes into file names, and a peer sends its own: one that is not of the form this provider makes
     * (a pid, a dash, 8 hex digits) could name a file outside the directory ({@code ../}), so it is refused.
     */
    private static String checked(final String deviceId) {
        if (deviceId == null || !DEVICE_ID.matcher(deviceId).matches()) {
            throw new RdmaException("'" + deviceId + "' is not a shared-memory device id (a process id, '-' and 8 hex "
                + "digits): the peer sent garbage");
        }
        return deviceId;
    }

    /**
     * @param address a listener name (a {@link FileNames name}) or an absolute socket path
     * @return the socket path
     * @throws RdmaException if the name is malformed or the path is too long for a UNIX-domain socket
     */
    Path socket(final String address) {
        final Path socket;
        if (address.startsWith("/")) {
            socket = Path.of(address);
        } else {
            try {
                socket = path.resolve(FileNames.requireName(address, "a shared-memory address") + ".sock");
            } catch (final IllegalArgumentException ex) {
                throw new RdmaException(ex.getMessage() + "; or give an absolute socket path", ex);
            }
        }
        final int bytes = socket.toString().getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_SOCKET_PATH_BYTES) {
            throw new RdmaException("the socket path " + socket + " is " + bytes + " bytes, over the "
                + MAX_SOCKET_PATH_BYTES + " that a UNIX-domain socket allows; use a shorter directory "
                + "(DeviceOptions.directory) or a shorter name");
        }
        return socket;
    }

    /**
     * Creates, backs and maps a new file of this directory: every block is reserved now
     * ({@link OffHeapMemory#mapFile}), so that a file system without room fails here, naming what it needs.
     *
     * @param file   the file, in this directory
     * @param length bytes, a page multiple
     * @param what   what the file holds, for the message ("a region of 1048576 bytes")
     * @throws RegistrationLimitException if the file system has no room for it
     * @throws RdmaException              if it cannot be created otherwise
     */
    OffHeapMemory createFile(final Path file, final long length, final String what) {
        final long usable = usableSpace();
        if (usable >= 0 && usable < length) {
            throw noRoom(what, length, usable, null);
        }
        try {
            return OffHeapMemory.mapFile(file, length, OffHeapMemory.FileMode.CREATE_NEW);
        } catch (final UncheckedIOException ex) {
            if (String.valueOf(ex.getCause() != null ? ex.getCause().getMessage() : "").contains("No space left")) {
                throw noRoom(what, length, usableSpace(), ex);
            }
            throw new RdmaException("cannot create " + what + " in " + path + ": " + ex.getMessage(), ex);
        }
    }

    private RegistrationLimitException noRoom(final String what, final long length, final long usable,
                                              final Exception cause) {
        final RegistrationLimitException error = new RegistrationLimitException("cannot create " + what + " in " + path
            + ": it needs " + length + " bytes and its file system has " + (usable < 0 ? "an unknown number of"
            : String.valueOf(usable)) + " bytes free; free space there, enlarge it (a container: docker run "
            + "--shm-size=..., a tmpfs: mount -o remount,size=...), or choose another directory "
            + "(DeviceOptions.directory, RdmaClient.directory / RdmaServer.directory)");
        if (cause != null) {
            error.initCause(cause);
        }
        return error;
    }

    /** @return bytes free on this directory's file system, or -1 if it cannot be read */
    private long usableSpace() {
        try {
            return Files.getFileStore(path).getUsableSpace();
        } catch (final IOException ex) {
            return -1;
        }
    }


    /**
     * Creates and locks this device's liveness file. The kernel releases the lock when the process dies, however it
     * dies, which is how {@link #removeFilesOfDeadProcesses()} tells a dead device's files from a live one's, even
     * across PID namespaces.
     */
    Liveness claimLiveness(final String deviceId) {
        final Path file = path.resolve(deviceId + ".live");
        FileChannel channel = null;
        try {
            channel = FileChannel.open(file, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            return new Liveness(file, channel, channel.lock());
        } catch (final IOException ex) {
            if (channel != null) {
                try {
                    channel.close();
                    Files.deleteIfExists(file);
                } catch (final IOException ignored) {
                    // the original error is the one to report
                }
            }
            throw new RdmaException("cannot create " + file + ": " + ex.getMessage()
                + "; choose a writable directory (DeviceOptions.directory)", ex);
        }
    }

    /**
     * Removes the files of devices whose process is gone: its PID does not run here and its liveness file is not
     * locked. A device of a live process, here or in another PID namespace, keeps its lock and its files.
     */
    void removeFilesOfDeadProcesses() {
        final Map<String, List<Path>> byDevice = new TreeMap<>();
        try (Stream<Path> files = Files.list(path)) {
            files.forEach(file -> {
                final String name = file.getFileName().toString();
                final int dot = name.indexOf('.');
                if (dot > 0 && DEVICE_ID.matcher(name.substring(0, dot)).matches() && !name.endsWith(".sock")) {
                    byDevice.computeIfAbsent(name.substring(0, dot), id -> new ArrayList<>()).add(file);
                }
            });
        } catch (final IOException ex) {
            LOG.warn("cannot list {} to remove files of dead processes: {}", path, ex.toString());
            return;
        }
        byDevice.forEach((id, files) -> {
            if (isAbandoned(id)) {
                files.sort((a, b) -> Boolean.compare(a.toString().endsWith(".live"), b.toString().endsWith(".live")));
                for (final Path file : files) {
                    try {
                        Files.deleteIfExists(file);
                    } catch (final IOException ignored) {
                        // removed by someone else meanwhile
                    }
                }
                if (LOG.isDebugEnabled()) {
                    LOG.debug("removed {} files of device {}, whose process is gone", files.size(), id);
                }
            }
        });
    }

    private boolean isAbandoned(final String deviceId) {
        final long pid = Long.parseLong(deviceId.substring(0, deviceId.indexOf('-')));
        if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            return false;
        }
        final Path live = path.resolve(deviceId + ".live");
        if (!Files.exists(live)) {
            return true;
        }
        try (FileChannel channel = FileChannel.open(live, StandardOpenOption.WRITE)) {
            final FileLock lock = channel.tryLock();
            if (lock == null) {
                return false;
            }
            lock.release();
            return true;
        } catch (final OverlappingFileLockException | IOException ex) {
            return false; // held in this JVM, or unreadable: leave it
        }
    }

    /** @return true if {@code file} is a regular file directly in this directory (not a link, not elsewhere) */
    boolean holds(final Path file) {
        final Path normal = file.toAbsolutePath().normalize();
        return path.equals(normal.getParent()) && Files.isRegularFile(normal, LinkOption.NOFOLLOW_LINKS);
    }

    /** A device's claim on its files: a locked file that the kernel unlocks when the process dies. */
    static final class Liveness implements AutoCloseable {
        private final Path file;
        private final FileChannel channel;
        private final FileLock lock;

        private Liveness(final Path file, final FileChannel channel, final FileLock lock) {
            this.file = file;
            this.channel = channel;
            this.lock = lock;
        }

        @Override
        public void close() {
            try {
                Files.deleteIfExists(file);
                lock.release();
                channel.close();
            } catch (final IOException ignored) {
                // the directory is gone: nothing left to release
            }
        }
    }
}
