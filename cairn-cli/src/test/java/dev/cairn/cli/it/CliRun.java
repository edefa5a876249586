package dev.cairn.cli.it;

import dev.cairn.cli.CairnCli;
import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import picocli.CommandLine;

/**
 * One run of the CLI in the IT's JVM, as the ITs of the CLI against a {@link CoordinatorTestBed} share it: its exit
 * status and what it wrote to stdout and stderr.
 *
 * @param exit the exit status
 * @param out what it wrote to stdout
 * @param err what it wrote to stderr
 */
record CliRun(int exit, String out, String err) {

    /** Runs the CLI against {@code cairn}'s broker and topics, signing with its requests key. */
    static CliRun against(CoordinatorTestBed cairn, String... args) {
        String[] all = Stream.concat(Stream.of(args), Stream.of("--bootstrap-servers", cairn.bootstrapServers(),
                "--topic-prefix", cairn.topics().prefix(), "--send-timeout-ms", "20000",
                "--requests-key-file", requestsKeyFile(cairn).toString())).toArray(String[]::new);
        return run(all);
    }

    /** Runs the CLI with {@code args} as they are. */
    static CliRun run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = CairnCli.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int exit = commandLine.execute(args);
        return new CliRun(exit, out.toString(), err.toString());
    }

    /** A temporary file holding {@code cairn}'s requests key, as {@code cairn keys requests --out} writes it. */
    static Path requestsKeyFile(CoordinatorTestBed cairn) {
        try {
            Path file = Files.createTempFile("cairn-cli-it-", ".key");
            file.toFile().deleteOnExit();
            return Files.writeString(file, cairn.requestsKey().orElseThrow().toBase64() + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
