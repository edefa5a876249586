package dev.cairn.cli;

import dev.cairn.auth.SigningKey;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code cairn keys rotate --master-key-file OLD --out NEW [--overlap PT24H]}: the first step of a key rotation. In:
 * the current master key's file and the new file's path; out: a new random master key in a new file (never an
 * existing one; readable by its owner only), and on standard output the coordinator settings to roll out (the new
 * key current, the old one previous until now plus the overlap) and the next steps, with the key ids to match
 * against the {@code cairn.sig.key-id} headers. Nothing is sent.
 */
@Command(name = "rotate", description = "Writes a new master key to replace the one of --master-key-file, and prints "
        + "the coordinator settings of the rotation (the old key accepted for --overlap more) and the next steps.")
final class KeysRotateCommand implements Callable<Integer> {

    @Option(names = "--master-key-file", required = true, paramLabel = "FILE",
            description = "The coordinator's current master key file, which the new key replaces.")
    Path masterKeyFile;

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "The new key file to create.")
    Path out;

    @Option(names = "--overlap", defaultValue = "PT24H", paramLabel = "DURATION", converter = OverlapConverter.class,
            description = "How long from now the coordinators accept the old key beside the new one: ISO-8601 "
                    + "(PT24H) or 90m, 36h, 7d (default: ${DEFAULT-VALUE}). Long enough to restart every coordinator "
                    + "and hand every sidecar and CLI user the new keys.")
    Duration overlap;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        SigningKey previous = KeysCommand.readMaster(spec, masterKeyFile);
        CairnCli cli = (CairnCli) spec.parent().parent().userObject();
        Instant until = Instant.ofEpochMilli(cli.nowMs()).plus(overlap).truncatedTo(ChronoUnit.SECONDS);
        SigningKey current = SigningKey.generate();
        KeysCommand.writeNew(spec, out, current);
        PrintWriter writer = spec.commandLine().getOut();
        writer.printf("Wrote a new master key to %s (key id %s); it replaces %s (key id %s).%n%n", out, current.id(),
                masterKeyFile, previous.id());
        writer.printf("1. Restart the coordinator instances one at a time with these settings (--config file; or "
                + "the flags below, or CAIRN_* variables):%n");
        writer.printf("     sidecar.master.key.file=%s%n", out);
        writer.printf("     sidecar.previous.master.key.file=%s%n", masterKeyFile);
        writer.printf("     sidecar.previous.master.key.until=%s%n", until);
        writer.printf("     --sidecar-master-key-file %s --sidecar-previous-master-key-file %s "
                + "--sidecar-previous-master-key-until %s%n", out, masterKeyFile, until);
        writer.printf("   Until %s they accept records signed with the keys of either master key, and their REST API "
                + "signs with the old requests key, which instances not yet restarted accept too.%n", until);
        writer.printf("2. Once every instance runs with them, give each job's sidecars their new key: `cairn keys job "
                + "--job JOB --master-key-file %s`, written over their auth.key.file (to a temporary file, then "
                + "renamed): a running sidecar signs with it within a second.%n", out);
        writer.printf("3. Give those who send requests the new requests key (key id %s): `cairn keys requests "
                + "--master-key-file %s --out FILE`.%n", current.requestsKey().id(), out);
        writer.printf("4. After %s, remove the two sidecar.previous.master.key.* settings at the next restart and "
                + "destroy %s: records signed with its keys are dead-lettered as BAD_SIGNATURE from then on.%n",
                until, masterKeyFile);
        writer.printf("The steps: docs/security.md, Rotating keys.%n");
        writer.flush();
        return 0;
    }

    /** An overlap: ISO-8601 ({@code PT24H}, {@code P2D}) or a number with {@code m}, {@code h} or {@code d}. */
    static final class OverlapConverter implements ITypeConverter<Duration> {

        private static final Pattern SHORT = Pattern.compile("(\\d{1,6})([mhd])");

        @Override
        public Duration convert(String value) {
            String text = value.strip().toLowerCase(Locale.ROOT);
            Duration overlap;
            Matcher shortForm = SHORT.matcher(text);
            if (shortForm.matches()) {
                long amount = Long.parseLong(shortForm.group(1));
                overlap = switch (shortForm.group(2)) {
                    case "m" -> Duration.ofMinutes(amount);
                    case "h" -> Duration.ofHours(amount);
                    default -> Duration.ofDays(amount);
                };
            } else {
                try {
                    overlap = Duration.parse(text.toUpperCase(Locale.ROOT));
                } catch (DateTimeParseException e) {
                    throw new TypeConversionException("'" + value + "' is no duration: give ISO-8601 (PT24H) or a "
                            + "number of minutes, hours or days (90m, 36h, 7d)");
                }
            }
            if (overlap.isNegative() || overlap.isZero()) {
                throw new TypeConversionException("'" + value + "' is not a positive duration: the old key must "
                        + "stay accepted while the coordinators restart");
            }
            return overlap;
        }
    }
}
