package dev.cairn.cli;

import dev.cairn.auth.SigningKey;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code cairn keys}: the keys that authenticate sidecar records and requests. {@code generate} writes a new random
 * master key for the coordinator ({@code --sidecar-master-key-file}); {@code job} prints the key of one job's
 * sidecars, derived from the master key, for the operator to hand to that job's sidecars only
 * ({@code auth.key} / {@code CAIRN_SIDECAR_AUTH_KEY}); {@code requests} prints or writes the requests key, derived
 * from the master key, that the CLI signs requests with ({@code --requests-key-file}). None talks to Kafka.
 */
@Command(name = "keys", description = "Makes the keys that authenticate sidecar records and requests (nothing is "
        + "sent).",
        subcommands = {KeysCommand.Generate.class, KeysCommand.Job.class, KeysCommand.Requests.class},
        synopsisSubcommandLabel = "(generate | job | requests)")
final class KeysCommand {

    /** {@code cairn keys generate --out FILE}. */
    @Command(name = "generate", description = "Writes a new random master key (Base64) to a new file readable "
            + "by its owner only.")
    static final class Generate implements Callable<Integer> {

        @Option(names = "--out", required = true, paramLabel = "FILE", description = "The key file to create.")
        Path out;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            writeNew(spec, out, SigningKey.generate());
            PrintWriter writer = spec.commandLine().getOut();
            writer.println("Wrote a new master key to " + out + ". Start the coordinator with "
                    + "--sidecar-master-key-file " + out + "; give each job's sidecars `cairn keys job`'s key, and "
                    + "those who send requests `cairn keys requests`' key.");
            writer.flush();
            return 0;
        }
    }

    /** {@code cairn keys job --job J --master-key-file FILE}. */
    @Command(name = "job", description = "Prints the key of one job's sidecars (Base64), derived from the master key.")
    static final class Job implements Callable<Integer> {

        @Option(names = "--job", required = true, paramLabel = "JOB", description = "The job id.")
        String jobId;

        @Option(names = "--master-key-file", required = true, paramLabel = "FILE",
                description = "The coordinator's master key file.")
        Path masterKeyFile;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            if (jobId.isBlank()) {
                throw new ParameterException(spec.commandLine(), "--job must not be blank");
            }
            SigningKey master = readMaster(spec, masterKeyFile);
            PrintWriter writer = spec.commandLine().getOut();
            writer.println(master.jobKey(jobId).toBase64());
            writer.flush();
            return 0;
        }
    }

    /** {@code cairn keys requests --master-key-file FILE [--out FILE]}. */
    @Command(name = "requests", description = "Prints the requests key (Base64), derived from the master key, or "
            + "writes it to a new file readable by its owner only: what `cairn register`, `trigger`, `stop` and "
            + "`status` sign with (--requests-key-file).")
    static final class Requests implements Callable<Integer> {

        @Option(names = "--master-key-file", required = true, paramLabel = "FILE",
                description = "The coordinator's master key file.")
        Path masterKeyFile;

        @Option(names = "--out", paramLabel = "FILE", description = "The key file to create (default: print the key).")
        Path out;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            SigningKey requestsKey = readMaster(spec, masterKeyFile).requestsKey();
            PrintWriter writer = spec.commandLine().getOut();
            if (out == null) {
                writer.println(requestsKey.toBase64());
            } else {
                writeNew(spec, out, requestsKey);
                writer.println("Wrote the requests key to " + out + ". Sign requests with --requests-key-file " + out
                        + " (or CAIRN_REQUESTS_KEY_FILE).");
            }
            writer.flush();
            return 0;
        }
    }

    private static SigningKey readMaster(CommandSpec spec, Path masterKeyFile) {
        try {
            return SigningKey.fromFile(masterKeyFile);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--master-key-file: " + e.getMessage());
        }
    }

    /** Writes {@code key} to the new file {@code out}, readable by its owner only. */
    private static void writeNew(CommandSpec spec, Path out, SigningKey key) {
        try {
            Files.writeString(out, key.toBase64() + "\n", StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            if (Files.getFileStore(out).supportsFileAttributeView("posix")) {
                Files.setPosixFilePermissions(out, PosixFilePermissions.fromString("rw-------"));
            }
        } catch (IOException e) {
            throw new ParameterException(spec.commandLine(), "--out: cannot create " + out + " (" + e
                    + "); it must not exist yet");
        }
    }
}
