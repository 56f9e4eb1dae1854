package io.rdmareactive.provider.verbs;

/** Names of the {@code errno} values the verbs and connection-manager calls report (Linux). */
final class Errno {

    static final int EPERM = 1;
    static final int ENOENT = 2;
    static final int EINTR = 4;
    static final int EAGAIN = 11;
    static final int ENOMEM = 12;
    static final int EACCES = 13;
    static final int EFAULT = 14;
    static final int ENODEV = 19;
    static final int EINVAL = 22;
    static final int ENOSYS = 38;
    static final int EADDRINUSE = 98;
    static final int EADDRNOTAVAIL = 99;
    static final int ETIMEDOUT = 110;
    static final int ECONNREFUSED = 111;

    private Errno() {
    }

    /** @return the symbolic name of an errno value, for example {@code ENOSYS(38)} */
    static String name(final int errno) {
        final String name = switch (errno) {
            case EPERM -> "EPERM";
            case ENOENT -> "ENOENT";
            case EINTR -> "EINTR";
            case EAGAIN -> "EAGAIN";
            case ENOMEM -> "ENOMEM";
            case EACCES -> "EACCES";
            case EFAULT -> "EFAULT";
            case 16 -> "EBUSY";
            case 17 -> "EEXIST";
            case ENODEV -> "ENODEV";
            case EINVAL -> "EINVAL";
            case 24 -> "EMFILE";
            case 28 -> "ENOSPC";
            case ENOSYS -> "ENOSYS";
            case 61 -> "ENODATA";
            case 95 -> "EOPNOTSUPP";
            case EADDRINUSE -> "EADDRINUSE";
            case EADDRNOTAVAIL -> "EADDRNOTAVAIL";
            case 101 -> "ENETUNREACH";
            case 104 -> "ECONNRESET";
            case ETIMEDOUT -> "ETIMEDOUT";
            case ECONNREFUSED -> "ECONNREFUSED";
            case 113 -> "EHOSTUNREACH";
            default -> "errno";
        };
        return name + "(" + errno + ")";
    }
}
