package io.rdmareactive;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The commit a checkout's {@code HEAD} names, read from its {@code .git} files, for a machine without the
 * {@code git} command (the Soft-RoCE guest, a container): the directory or one of its parents holds {@code .git}
 * (a directory, or a worktree's file that points at one), whose {@code HEAD} is a commit or a branch found as a
 * loose ref or in {@code packed-refs}.
 */
final class GitHead {

    private static final Pattern COMMIT = Pattern.compile("[0-9a-f]{40}([0-9a-f]{24})?");

    private GitHead() {
    }

    /** @return the commit of the checkout {@code directory} is in, or empty if none can be read */
    static Optional<String> read(final Path directory) {
        for (Path dir = directory; dir != null; dir = dir.getParent()) {
            final Path dotGit = dir.resolve(".git");
            if (Files.exists(dotGit)) {
                try {
                    return commitOf(gitDirectory(dotGit));
                } catch (final IOException | RuntimeException ex) {
                    return Optional.empty();
                }
            }
        }
        return Optional.empty();
    }

    /** @return the git directory: {@code .git} itself, or where a worktree's {@code .git} file points */
    private static Path gitDirectory(final Path dotGit) throws IOException {
        if (Files.isDirectory(dotGit)) {
            return dotGit;
        }
        final String line = Files.readString(dotGit).trim();
        if (!line.startsWith("gitdir:")) {
            throw new IOException(dotGit + " names no git directory");
        }
        return dotGit.getParent().resolve(line.substring("gitdir:".length()).trim()).normalize();
    }

    private static Optional<String> commitOf(final Path gitDir) throws IOException {
        final String head = Files.readString(gitDir.resolve("HEAD")).trim();
        if (COMMIT.matcher(head).matches()) {
            return Optional.of(head);
        }
        if (!head.startsWith("ref:")) {
            return Optional.empty();
        }
        final String ref = head.substring("ref:".length()).trim();
        // a worktree keeps its HEAD; branches live in the common directory
        final Path common = Files.isRegularFile(gitDir.resolve("commondir"))
            ? gitDir.resolve(Files.readString(gitDir.resolve("commondir")).trim()).normalize() : gitDir;
        for (final Path base : new Path[] {gitDir, common}) {
            final Path loose = base.resolve(ref);
            if (Files.isRegularFile(loose)) {
                final String commit = Files.readString(loose).trim();
                if (COMMIT.matcher(commit).matches()) {
                    return Optional.of(commit);
                }
            }
        }
        final Path packed = common.resolve("packed-refs");
        if (Files.isRegularFile(packed)) {
            try (Stream<String> lines = Files.lines(packed)) {
                return lines.filter(line -> line.endsWith(" " + ref)).map(line -> line.substring(0, line.indexOf(' ')))
                    .filter(commit -> COMMIT.matcher(commit).matches()).findFirst();
            }
        }
        return Optional.empty();
    }
}
