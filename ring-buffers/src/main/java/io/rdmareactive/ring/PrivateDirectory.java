package io.rdmareactive.ring;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Set;

/**
 * A directory only its owner may enter, for files other processes of the same user map (shared memory, counters): it
 * is created with mode 0700, must be a directory and not a symbolic link, must belong to the user this process runs
 * as (compared by uid, so a user without a name is still itself), and its mode is set back to 0700 if it was
 * loosened. Unless told otherwise, rdma-reactive keeps such files in {@link #defaultPath()}.
 */
public final class PrivateDirectory {

    /** The default directory's parent: a tmpfs on Linux, so mapped memory never touches a disk. */
    public static final Path DEFAULT_PARENT = Path.of("/dev/shm");

    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");

    private PrivateDirectory() {
    }

    /**
     * @return {@code /dev/shm/rdma-reactive-<user>}, or the same under {@code java.io.tmpdir} where there is no
     *     {@code /dev/shm}; the user name made a {@link FileNames name} with {@link FileNames#sanitize}
     */
    public static Path defaultPath() {
        final String user = FileNames.sanitize(System.getProperty("user.name", "user"));
        final Path parent = Files.isDirectory(DEFAULT_PARENT) ? DEFAULT_PARENT
            : Path.of(System.getProperty("java.io.tmpdir"));
        return parent.resolve("rdma-reactive-" + user);
    }

    /**
     * Creates the directory if needed and checks it.
     *
     * @param requested the directory
     * @param what      how messages name it ("the shared-memory directory")
     * @param advice    what to do when it cannot be created ("choose a writable directory (...)")
     * @return its absolute, normalised path
     * @throws IllegalStateException naming the directory, what is wrong and what to do
     */
    public static Path open(final Path requested, final String what, final String advice) {
        final Path path = requested.toAbsolutePath().normalize();
        try {
            if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectories(path, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
                Files.setPosixFilePermissions(path, OWNER_ONLY);
            }
        } catch (final FileSystemException ex) {
            throw new IllegalStateException("cannot create " + what + " " + path + ": " + reason(ex) + "; " + advice,
                ex);
        } catch (final IOException | UnsupportedOperationException ex) {
            throw new IllegalStateException("cannot create " + what + " " + path + ": " + ex
                + "; choose a writable directory on a POSIX file system", ex);
        }
        if (!Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
            throw new IllegalStateException(what + " " + path + " exists but is not a directory (or is a "
                + "symbolic link); remove it or choose another directory");
        }
        try {
            final UserPrincipal owner = Files.getOwner(path, LinkOption.NOFOLLOW_LINKS);
            final UserPrincipal me = currentUser();
            if (me == null || !owner.equals(me)) { // by uid: a user without a name (no passwd entry) is still one
                throw new IllegalStateException(what + " " + path + " belongs to user '" + owner.getName()
                    + "', not to '" + (me == null ? "?" : me.getName()) + "'; each user needs a directory of their own");
            }
            final Set<PosixFilePermission> mode = Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS);
            if (!mode.equals(OWNER_ONLY)) {
                Files.setPosixFilePermissions(path, OWNER_ONLY);
            }
        } catch (final IOException ex) {
            throw new IllegalStateException("cannot check the owner and mode of " + path + ": " + ex, ex);
        }
        return path;
    }

    /**
     * @return the user this process runs as (the owner of {@code /proc/self}), whose equality with another principal is
     *     that of their uids, even for a uid without a name; null where it cannot be read
     */
    public static UserPrincipal currentUser() {
        try {
            return Files.getOwner(Path.of("/proc/self"));
        } catch (final IOException | UnsupportedOperationException ex) {
            return null;
        }
    }

    /** @return the reason a file system gave, and the file it named */
    public static String reason(final IOException ex) {
        if (ex instanceof FileSystemException fse && fse.getReason() != null) {
            return fse.getReason() + (fse.getFile() != null ? " (" + fse.getFile() + ")" : "");
        }
        return ex.toString();
    }
}
