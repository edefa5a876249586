package dev.cairn.cli;

import dev.cairn.client.audit.JournalReader;
import dev.cairn.core.audit.JournalChecker;
import dev.cairn.core.audit.Violation;
import dev.cairn.core.contract.CoordinatorSettings;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine.Command;

/** {@code cairn audit check}: the journal's invariants over every record of every partition. */
@Command(name = "check",
        description = "Checks the journal's invariants: every record decodes and is keyed by its job, checkpoint ids "
                + "strictly increase per job, a checkpoint ends at most once and only after it was triggered, it "
                + "completes only after every required ack, no ack is accepted after its end, counts and sizes agree. "
                + "Prints every violation with its partition/offset, and the offsets of each partition it replayed; "
                + "exit code 1 when there is any violation.")
final class AuditCheckCommand extends AuditSubcommand {

    static final List<String> CSV_HEADER = List.of("partition", "offset", "job", "rule", "message");

    /**
     * What a check found, as the JSON output shows it.
     *
     * @param history the offsets of each partition the check replayed
     */
    record Report(String topic, long records, int partitions, int jobs, List<Violation> violations,
            List<JournalReader.History> history) {}

    @Override
    public Integer call() {
        return AuditCommand.reporting(spec, () -> {
            JournalChecker checker = new JournalChecker(CoordinatorSettings.DEFAULTS);
            JournalReader.Summary summary = audit.read(spec, JournalReader.Bounds.ALL, checker::accept, true);
            List<Violation> violations = checker.finish();
            Report report = new Report(audit.cli.topics(spec).journal(), checker.records(),
                    summary.partitions().size(), checker.state().jobIds().size(), violations, summary.history());
            write(spec.commandLine().getOut(), report);
            return violations.isEmpty() ? 0 : 1;
        });
    }

    private void write(PrintWriter out, Report report) {
        switch (audit.format) {
            case JSON -> AuditOutput.json(out, report);
            case CSV -> AuditOutput.csv(out, CSV_HEADER, report.violations().stream()
                    .map(v -> Arrays.<Object>asList(v.partition(), v.offset(), v.jobId(), v.rule(), v.message()))
                    .toList());
            default -> {
                report.violations().forEach(v -> out.println(v.position() + "  " + v.rule() + "  "
                        + (v.jobId() == null ? "" : "job " + v.jobId() + ": ") + v.message()));
                out.println("Checked " + report.records() + " records of " + report.topic() + " ("
                        + report.partitions() + " partitions, " + report.jobs()
                        + (report.jobs() == 1 ? " job): " : " jobs): ")
                        + (report.violations().isEmpty() ? "no violation." : report.violations().size()
                                + " violation" + (report.violations().size() == 1 ? "." : "s.")));
                out.println("History replayed: " + String.join(", ",
                        report.history().stream().map(JournalReader.History::describe).toList()) + ".");
                out.flush();
            }
        }
    }
}
