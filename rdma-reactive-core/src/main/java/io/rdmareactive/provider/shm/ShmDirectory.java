package io.rdmareactive.provider.shm;

import io.rdmareactive.spi.RdmaException;
import io.rdmareactive.spi.RegistrationLimitException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The directory where a shared-memory device keeps its files: registered memory, completion queues, queue pairs,
 * the region table and listening sockets. Mode 0700, owned by the user; every file in it mode 0600.
 *
 * <p>File names start with the owning device's id, {@code <pid>-<random>}, so that files of dead processes can be
 * recognised and removed when a device opens.
 */
final class ShmDirectory {

    /** The default parent: a tmpfs on Linux, so registered memory never touches a disk. */
    static final Path DEFAULT_PARENT = Path.of("/dev/shm");
    /** sun_path holds 108 bytes including the terminating NUL. */
    static final int MAX_SOCKET_PATH_BYTES = 107;

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");
    private static final System.Logger LOG = System.getLogger(ShmDirectory.class.getName());

    private final Path path;

    private ShmDirectory(final Path path) {
        this.path = path;
    }

    /** @return the default directory: /dev/shm/rdma-reactive-USER, or under java.io.tmpdir where /dev/shm is missing */
    static Path defaultPath() {
        final String user = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9._-]", "_");
        final Path parent = Files.isDirectory(DEFAULT_PARENT) ? DEFAULT_PARENT : Path.of(System.getProperty("java.io.tmpdir"));
        return parent.resolve("rdma-reactive-" + user);
    }

    /**
     * Creates the directory (mode 0700) if needed and checks that this user owns it and can create files in it.
     *
     * @throws RdmaException naming the directory, what is wrong and what to do
     */
    static ShmDirectory open(final Path requested) {
        final Path path = requested.toAbsolutePath().normalize();
        try {
            if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectories(path, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
                Files.setPosixFilePermissions(path, OWNER_ONLY);
            }
        } catch (final FileSystemException ex) {
            throw new RdmaException("cannot create the shared-memory directory " + path + ": " + reason(ex)
                + "; choose a writable directory (DeviceOptions.directory, rdma.shm.directory)", ex);
        } catch (final IOException | UnsupportedOperationException ex) {
            throw new RdmaException("cannot create the shared-memory directory " + path + ": " + ex
                + "; choose a writable directory on a POSIX file system", ex);
        }
        if (!Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
            throw new RdmaException("the shared-memory directory " + path + " exists but is not a directory (or is a "
                + "symbolic link); remove it or choose another directory");
        }
        try {
            final UserPrincipal owner = Files.getOwner(path, LinkOption.NOFOLLOW_LINKS);
            final String me = System.getProperty("user.name");
            if (me != null && !owner.getName().equals(me)) {
                throw new RdmaException("the shared-memory directory " + path + " belongs to user '" + owner.getName()
                    + "', not to '" + me + "'; each user needs a directory of their own");
            }
            final Set<PosixFilePermission> mode = Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS);
            if (!mode.equals(OWNER_ONLY)) {
                Files.setPosixFilePermissions(path, OWNER_ONLY);
            }
        } catch (final IOException ex) {
            throw new RdmaException("cannot check the owner and mode of " + path + ": " + ex, ex);
        }
        final Path probe = path.resolve(".probe-" + ProcessHandle.current().pid());
        try {
            Files.deleteIfExists(probe);
            Files.createFile(probe);
            Files.delete(probe);
        } catch (final IOException ex) {
            throw new RdmaException("cannot create files in the shared-memory directory " + path + ": " + reason(ex)
                + "; choose a writable directory (DeviceOptions.directory, rdma.shm.directory)", ex);
        }
        return new ShmDirectory(path);
    }

    private static String reason(final IOException ex) {
        if (ex instanceof FileSystemException fse && fse.getReason() != null) {
            return fse.getReason() + (fse.getFile() != null ? " (" + fse.getFile() + ")" : "");
        }
        return ex.toString();
    }

    Path path() {
        return path;
    }

    Path regionTable(final String deviceId) {
        return path.resolve(deviceId + ".mrt");
    }

    Path completionQueue(final String deviceId, final int id) {
        return path.resolve(deviceId + ".cq" + id);
    }

    Path queuePair(final String deviceId, final int number) {
        return path.resolve(deviceId + ".qp" + number);
    }

    Path region(final String deviceId, final int index) {
        return path.resolve(deviceId + ".mr" + index);
    }

    /**
     * @param address a listener name ({@code [A-Za-z0-9._-]}, at most 64 characters) or an absolute socket path
     * @return the socket path
     * @throws RdmaException if the name is malformed or the path is too long for a UNIX-domain socket
     */
    Path socket(final String address) {
        final Path socket;
        if (address.startsWith("/")) {
            socket = Path.of(address);
        } else if (NAME.matcher(address).matches()) {
            socket = path.resolve(address + ".sock");
        } else {
            throw new RdmaException("'" + address + "' is not a shared-memory address: use a name of letters, digits, "
                + "'.', '_' or '-' (at most 64), or an absolute socket path");
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
     * Checks that the file system has room for a new file of {@code length} bytes.
     *
     * @throws RegistrationLimitException if it has not
     */
    void checkSpace(final long length) {
        try {
            final FileStore store = Files.getFileStore(path);
            final long usable = store.getUsableSpace();
            if (usable < length) {
                throw new RegistrationLimitException("cannot register " + length + " bytes: the file system of " + path
                    + " has only " + usable + " bytes free; free space there (a tmpfs such as /dev/shm can be enlarged "
                    + "with 'mount -o remount,size=...'), or choose another directory");
            }
        } catch (final IOException ex) {
            throw new RdmaException("cannot read the free space of " + path + ": " + ex, ex);
        }
    }

    /** Removes files left by devices of processes that no longer exist. */
    void removeFilesOfDeadProcesses() {
        try (Stream<Path> files = Files.list(path)) {
            files.forEach(file -> {
                final String name = file.getFileName().toString();
                final int dash = name.indexOf('-');
                if (dash <= 0 || name.endsWith(".sock")) {
                    return;
                }
                try {
                    final long pid = Long.parseLong(name.substring(0, dash));
                    if (ProcessHandle.of(pid).isEmpty()) {
                        Files.deleteIfExists(file);
                        LOG.log(System.Logger.Level.DEBUG, "removed " + file + ", left by process " + pid + " which is gone");
                    }
                } catch (final NumberFormatException | IOException ignored) {
                    // not one of ours, or already gone
                }
            });
        } catch (final IOException ex) {
            LOG.log(System.Logger.Level.WARNING, "cannot list " + path + " to remove files of dead processes: " + ex);
        }
    }
}
