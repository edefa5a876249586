package dev.cairn.coordinator.testbed;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A program a test needs beyond a JDK and Maven (a browser, an interpreter): the test runs where it is installed,
 * and is skipped elsewhere, with a reason that names the packages to install. A build that must not skip it says
 * so with {@code -Dcairn.<name>=required} ({@code .ci/run} does, after installing the packages): the test then
 * fails instead of being skipped.
 *
 * @param name the tool's name in the system property, e.g. {@code browser}
 * @param packages the Debian packages that install it, e.g. {@code chromium chromium-driver}
 * @param executables the files the test runs: an absolute path, or a bare name looked up on {@code PATH} as a
 *     shell would
 */
public record OptionalTool(String name, String packages, List<Path> executables) {

    /** Debian's chromium and chromium-driver, which Selenium drives (it finds no browser of its own here). */
    public static final OptionalTool BROWSER = new OptionalTool("browser", "chromium chromium-driver",
            List.of(Path.of("/usr/bin/chromium"), Path.of("/usr/bin/chromedriver")));

    /** Debian's python3, found on {@code PATH} (where a pyenv or virtualenv python3 also counts). */
    public static final OptionalTool PYTHON = new OptionalTool("python", "python3", List.of(Path.of("python3")));

    /** Prometheus' promtool (Debian's prometheus), found on {@code PATH}: it checks and unit-tests alert rules. */
    public static final OptionalTool PROMTOOL = new OptionalTool("promtool", "prometheus",
            List.of(Path.of("promtool")));

    /** The system property that makes the tool required. */
    public String property() {
        return "cairn." + name;
    }

    /**
     * Returns the executables, each as the file found, when every one is installed; otherwise skips the calling
     * test (a JUnit assumption), or fails it when {@link #property()} is {@code required}.
     */
    public List<Path> assumeInstalled() {
        List<Optional<Path>> found = executables.stream().map(OptionalTool::locate).toList();
        List<String> missing = new ArrayList<>();
        for (int i = 0; i < executables.size(); i++) {
            if (found.get(i).isEmpty()) {
                Path executable = executables.get(i);
                missing.add(executable.isAbsolute() ? executable.toString() : executable + " on PATH");
            }
        }
        if (missing.isEmpty()) {
            return found.stream().map(Optional::orElseThrow).toList();
        }
        String reason = "needs " + String.join(" and ", missing)
                + ": install Debian's " + packages + " (apt-get install " + packages + ")";
        if ("required".equals(System.getProperty(property()))) {
            Assertions.fail(reason + "; " + property() + "=required, so this test may not be skipped");
        }
        Assumptions.abort(reason + "; skipped (-D" + property() + "=required makes it fail instead)");
        throw new IllegalStateException("unreachable: the assumption above aborts the test");
    }

    /** The executable: an absolute path itself, or the first match of a bare name in {@code PATH}'s directories. */
    static Optional<Path> locate(Path executable) {
        if (executable.isAbsolute()) {
            return Optional.of(executable).filter(Files::isExecutable);
        }
        String path = System.getenv().getOrDefault("PATH", "");
        return Stream.of(path.split(File.pathSeparator)).filter(dir -> !dir.isEmpty())
                .map(dir -> Path.of(dir).resolve(executable)).filter(Files::isExecutable).findFirst();
    }
}
