package dev.cairn.demo;

import dev.cairn.auth.SigningKey;
import dev.cairn.cli.CairnCli;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/**
 * The {@code cairn} command line as the demo's user runs it, in this JVM: in, a command's arguments; out, the command
 * and what it printed, to the demo's output, and its exit code. Every command gets the broker, the topic prefix and the
 * requests key (written to a file, as {@code cairn keys requests} writes it), so that what it sends is signed as the
 * coordinator demands.
 */
final class DemoCli {

    private final PrintStream out;
    private final List<String> common;

    DemoCli(PrintStream out, String bootstrapServers, String topicPrefix, SigningKey requestsKey, Path dir) {
        this.out = out;
        Path keyFile = dir.resolve("requests.key");
        try {
            Files.createDirectories(dir);
            Files.writeString(keyFile, requestsKey.toBase64() + "\n", StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the requests key to " + keyFile, e);
        }
        this.common = List.of("--bootstrap-servers", bootstrapServers, "--topic-prefix", topicPrefix,
                "--requests-key-file", keyFile.toString());
    }

    /** Runs {@code cairn <args>}, printing {@code $ cairn <args>}, what the command printed and its exit code. */
    int run(String... args) {
        out.println("$ cairn " + String.join(" ", args));
        CommandLine cli = CairnCli.commandLine();
        PrintWriter writer = new PrintWriter(out, true, StandardCharsets.UTF_8);
        cli.setOut(writer);
        cli.setErr(writer);
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(common);
        int exit = cli.execute(all.toArray(String[]::new));
        writer.flush();
        out.println("(exit " + exit + ")");
        return exit;
    }
}
