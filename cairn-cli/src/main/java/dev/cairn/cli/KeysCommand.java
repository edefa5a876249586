package dev.cairn.cli;

import dev.cairn.auth.RecordSignatures;
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
 * from the master key, that the CLI signs requests with ({@code --requests-key-file}); {@code rotate} writes a new
 * master key to replace the current one and prints the settings of the rotation ({@link KeysRotateCommand}). Each
 * prints the public id of what it makes ({@link SigningKey#id()}), the value of the {@code cairn.sig.key-id} header
 * of the records a key signs; {@code job} and {@code requests} print it on standard error, so that their standard
 * output is the key alone. None talks to Kafka.
 */
@Command(name = "keys", description = "Makes the keys that authenticate sidecar records and requests (nothing is "
        + "sent).",
        subcommands = {KeysCommand.Generate.class, KeysCommand.Job.class, KeysCommand.Requests.class,
                KeysRotateCommand.class},
        synopsisSubcommandLabel = "(generate | job | requests | rotate)")
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
            SigningKey master = SigningKey.generate();
            writeNew(spec, out, master);
            PrintWriter writer = spec.commandLine().getOut();
            writer.println("Wrote a new master key to " + out + " (key id " + master.id() + "). Start the "
                    + "coordinator with --sidecar-master-key-file " + out + "; give each job's sidecars `cairn keys "
                    + "job`'s key, and those who send requests `cairn keys requests`' key.");
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
            SigningKey jobKey = readMaster(spec, masterKeyFile).jobKey(jobId);
            PrintWriter writer = spec.commandLine().getOut();
            writer.println(jobKey.toBase64());
            writer.flush();
            printKeyId(spec, jobKey);
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
                writer.flush();
                printKeyId(spec, requestsKey);
            } else {
                writeNew(spec, out, requestsKey);
                writer.println("Wrote the requests key to " + out + " (key id " + requestsKey.id() + "). Sign "
                        + "requests with --requests-key-file " + out + " (or CAIRN_REQUESTS_KEY_FILE).");
                writer.flush();
            }
            return 0;
        }
    }

    /** Prints the id of a key printed on standard output, on standard error: the output stays the key alone. */
    private static void printKeyId(CommandSpec spec, SigningKey key) {
        PrintWriter err = spec.commandLine().getErr();
        err.println("key id " + key.id() + " (what the " + RecordSignatures.KEY_ID_HEADER + " header of the records "
                + "it signs holds)");
        err.flush();
    }

    /** The master key of {@code masterKeyFile}, or a usage error naming {@code --master-key-file}. */
    static SigningKey readMaster(CommandSpec spec, Path masterKeyFile) {
        try {
            return SigningKey.fromFile(masterKeyFile);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--master-key-file: " + e.getMessage());
        }
    }

    /** Writes {@code key} to the new file {@code out}, readable by its owner only. */
    static void writeNew(CommandSpec spec, Path out, SigningKey key) {
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
