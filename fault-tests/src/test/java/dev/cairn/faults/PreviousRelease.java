package dev.cairn.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The previous release of Cairn, built from this repository's own history: the source tree of its commit is
 * extracted with {@code git archive <commit> | tar -x} into {@code fault-tests/target/previous-release} (no
 * worktree, nothing written to {@code .git}) and built there with
 * {@code mvn -B -q -o -DskipTests package -pl coordinator-service,task-sidecar,cairn-cli -am} (offline: the build
 * that runs this test has fetched what it needs; nothing is installed). A marker file names the commit that was
 * built, so a second run, or a second test, reuses the jars.
 *
 * <p>Which commit: the tag {@value #TAG} once it exists; until then the commit named in
 * {@code fault-tests/previous-release}. That file exists because no release was tagged: 0.2.0 is the commit that
 * closed its work (CHANGELOG.md names it), and a commit hash is the only name it has. Once the tag is pushed the
 * file is no longer read, and can go.
 */
final class PreviousRelease {

    static final String TAG = "v0.2.0";
    private static final String COMMIT_FILE = "fault-tests/previous-release";
    private static final String MARKER = ".cairn-built-commit";
    private static final String NEEDS_HISTORY = "the upgrade test needs the git history: clone without --depth";
    private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(10);
    private static ReleaseJars built;

    private PreviousRelease() {
    }

    /** The previous release's jars, extracted and built on first use in this JVM (or found built by a run before). */
    static synchronized ReleaseJars get() {
        if (built == null) {
            built = build(repositoryRoot(Path.of(System.getProperty("user.dir")).toAbsolutePath()));
        }
        return built;
    }

    private static ReleaseJars build(Path root) {
        String commit = commit(root);
        Path dir = root.resolve("fault-tests/target/previous-release");
        String name = "the previous release (" + commit.substring(0, 7) + ")";
        if (isBuilt(dir, commit)) {
            System.out.printf("[faults] %s: reusing the build in %s%n", name, dir);
            return ReleaseJars.builtIn(dir, name);
        }
        long started = System.nanoTime();
        deleteTree(dir);
        extract(root, commit, dir);
        mavenPackage(dir);
        write(dir.resolve(MARKER), commit + "\n");
        System.out.printf("[faults] %s: extracted and built in %s in %.1f s%n", name, dir,
                (System.nanoTime() - started) / 1e9);
        return ReleaseJars.builtIn(dir, name);
    }

    /** The directory holding {@code .git} (a directory, or a file in a worktree) at or above {@code from}. */
    static Path repositoryRoot(Path from) {
        for (Path dir = from; dir != null; dir = dir.getParent()) {
            if (Files.exists(dir.resolve(".git"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no .git at or above " + from + ": " + NEEDS_HISTORY);
    }

    /**
     * The store layout the previous release records ({@code StoreLayout.CURRENT} in its source tree), or 0 for a
     * release from before layouts were recorded: a coordinator of another layout rebuilds its stores from the
     * journal, one of the same layout takes them over as they are.
     */
    static synchronized long storeLayout() {
        Path source = repositoryRoot(Path.of(System.getProperty("user.dir")).toAbsolutePath())
                .resolve("fault-tests/target/previous-release/coordinator-service/src/main/java/dev/cairn/coordinator"
                        + "/streams/StoreLayout.java");
        if (!Files.exists(source)) {
            return 0;
        }
        try {
            Matcher current = Pattern.compile("long CURRENT = (\\d+);").matcher(Files.readString(source));
            if (!current.find()) {
                throw new IllegalStateException("no CURRENT layout in " + source);
            }
            return Long.parseLong(current.group(1));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + source, e);
        }
    }

    /** The tag's commit when the tag exists, else the commit {@code fault-tests/previous-release} names. */
    static String commit(Path root) {
        String tagged = git(root, "rev-parse", "-q", "--verify", TAG + "^{commit}");
        if (tagged != null) {
            return tagged;
        }
        Path file = root.resolve(COMMIT_FILE);
        String named;
        try {
            named = Files.readString(file, StandardCharsets.US_ASCII).trim();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ", which names the previous release's commit", e);
        }
        String commit = git(root, "rev-parse", "-q", "--verify", named + "^{commit}");
        if (commit == null) {
            throw new IllegalStateException("commit " + named + " (from " + COMMIT_FILE + ", no tag " + TAG
                    + ") is not in this clone: " + NEEDS_HISTORY);
        }
        return commit;
    }

    private static boolean isBuilt(Path dir, String commit) {
        try {
            return Files.readString(dir.resolve(MARKER), StandardCharsets.US_ASCII).trim().equals(commit)
                    && ReleaseJars.isBuiltIn(dir);
        } catch (IOException e) {
            return false;
        }
    }

    /** {@code git archive <commit> | tar -x -C dir}: the commit's files, nothing of .git touched. */
    private static void extract(Path root, String commit, Path dir) {
        try {
            Files.createDirectories(dir);
            Path log = dir.resolveSibling("previous-release-extract.log");
            ProcessBuilder archive = new ProcessBuilder("git", "-C", root.toString(), "archive", commit)
                    .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
            ProcessBuilder untar = new ProcessBuilder("tar", "-x", "-C", dir.toString())
                    .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            List<Process> pipeline = ProcessBuilder.startPipeline(List.of(archive, untar));
            for (Process process : pipeline) {
                if (exitCode(process, Duration.ofMinutes(2)) != 0) {
                    throw new IllegalStateException("git archive " + commit + " | tar -x failed; see " + log);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run git archive | tar (" + e.getMessage() + "): " + NEEDS_HISTORY,
                    e);
        }
    }

    /**
     * {@code mvn -B -q -o -DskipTests package} of the three programs, passing this JVM's {@code maven.repo.local} on
     * when it has one (CI runs with the default repository).
     */
    private static void mavenPackage(Path dir) {
        List<String> command = new ArrayList<>(List.of(maven(), "-B", "-q", "-o", "-DskipTests", "package", "-pl",
                "coordinator-service,task-sidecar,cairn-cli", "-am"));
        String repository = System.getProperty("maven.repo.local");
        if (repository != null && !repository.isBlank()) {
            command.add("-Dmaven.repo.local=" + repository);
        }
        Path log = dir.resolveSibling("previous-release-build.log");
        int exit;
        try {
            Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            exit = exitCode(process, BUILD_TIMEOUT);
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + command + ": " + e.getMessage(), e);
        }
        if (exit != 0) {
            throw new IllegalStateException("building the previous release failed (" + String.join(" ", command)
                    + " in " + dir + " exited " + exit + "); see " + log + ":\n" + tail(log));
        }
    }

    /** The Maven launcher: {@code $maven.home/bin/mvn} when the property names one, else {@code mvn} on the PATH. */
    private static String maven() {
        String home = System.getProperty("maven.home");
        if (home != null && Files.isExecutable(Path.of(home, "bin", "mvn"))) {
            return Path.of(home, "bin", "mvn").toString();
        }
        return "mvn";
    }

    /** {@code git <args>} in {@code root}: its first output line, or {@code null} when it exits non-zero. */
    private static String git(Path root, String... args) {
        List<String> command = new ArrayList<>(List.of("git", "-C", root.toString()));
        command.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return exitCode(process, Duration.ofSeconds(30)) == 0 && !out.isEmpty() ? out.lines().findFirst()
                    .orElseThrow() : null;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run git (" + e.getMessage() + "): " + NEEDS_HISTORY, e);
        }
    }

    private static int exitCode(Process process, Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(process.info().commandLine().orElse("a process")
                        + " did not finish within " + timeout);
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(" + e + ")";
        }
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }
}
