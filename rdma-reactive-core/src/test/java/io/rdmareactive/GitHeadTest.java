package io.rdmareactive;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The commit a checkout's {@code .git} files name, as a machine without {@code git} reads it. */
class GitHeadTest {

    private static final String A = "0123456789abcdef0123456789abcdef01234567";
    private static final String B = "89abcdef0123456789abcdef0123456789abcdef";

    @TempDir
    Path checkout;

    @Test
    void aBranchIsReadFromItsLooseRefOrElsePackedRefs() throws IOException {
        final Path git = Files.createDirectories(checkout.resolve(".git"));
        Files.writeString(git.resolve("HEAD"), "ref: refs/heads/main\n");
        Files.writeString(git.resolve("packed-refs"), "# pack-refs with: peeled fully-peeled sorted\n" + B
            + " refs/heads/other\n" + A + " refs/heads/main\n");
        final Path below = Files.createDirectories(checkout.resolve("module/src"));
        assertThat(GitHead.read(below)).as("from a directory inside the checkout, packed").contains(A);

        Files.createDirectories(git.resolve("refs/heads"));
        Files.writeString(git.resolve("refs/heads/main"), B + "\n");
        assertThat(GitHead.read(checkout)).as("a loose ref wins over packed-refs").contains(B);
    }

    @Test
    void aDetachedHeadIsItsCommitAndAWorktreeFollowsItsGitdir() throws IOException {
        final Path git = Files.createDirectories(checkout.resolve("main/.git"));
        Files.writeString(git.resolve("HEAD"), A + "\n");
        assertThat(GitHead.read(checkout.resolve("main"))).contains(A);

        final Path worktreeGit = Files.createDirectories(git.resolve("worktrees/wt"));
        Files.writeString(worktreeGit.resolve("HEAD"), "ref: refs/heads/feature\n");
        Files.writeString(worktreeGit.resolve("commondir"), "../..\n");
        Files.createDirectories(git.resolve("refs/heads"));
        Files.writeString(git.resolve("refs/heads/feature"), B + "\n");
        final Path worktree = Files.createDirectories(checkout.resolve("wt"));
        Files.writeString(worktree.resolve(".git"), "gitdir: " + worktreeGit + "\n");
        assertThat(GitHead.read(worktree)).as("a worktree's branch, from the common directory").contains(B);
    }

    @Test
    void nothingIsMadeUpWhereThereIsNoCheckoutOrNoCommit() throws IOException {
        final Path lone = Files.createDirectories(checkout.resolve("lone"));
        assertThat(GitHead.read(Path.of("/"))).isEmpty();
        final Path git = Files.createDirectories(lone.resolve(".git"));
        Files.writeString(git.resolve("HEAD"), "ref: refs/heads/unborn\n");
        assertThat(GitHead.read(lone)).as("a branch with no commit yet").isEmpty();
        Files.writeString(git.resolve("HEAD"), "garbage\n");
        assertThat(GitHead.read(lone)).isEmpty();
    }
}
