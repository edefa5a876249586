package dev.cairn.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;

/** What the benchmarks' picocli options share: parsing with {@code --help}, and where the output goes by default. */
public final class BenchFlags {

    private BenchFlags() {
    }

    /**
     * Parses {@code args} into {@code options} (a picocli command object).
     *
     * @return the parsed command line, or null after printing the usage for {@code --help} or {@code --version}
     * @throws CommandLine.ParameterException for a bad flag, with a message naming it
     */
    public static CommandLine parse(Object options, String... args) {
        CommandLine commandLine = new CommandLine(options);
        commandLine.parseArgs(args);
        if (commandLine.isUsageHelpRequested() || commandLine.isVersionHelpRequested()) {
            commandLine.usage(System.out);
            return null;
        }
        return commandLine;
    }

    /** The default output directory: benchmarks/target/benchmark, or target/benchmark inside the benchmarks module. */
    public static Path defaultOut() {
        return Files.isRegularFile(Path.of("benchmarks", "pom.xml")) ? Path.of("benchmarks", "target", "benchmark")
                : Path.of("target", "benchmark");
    }
}
