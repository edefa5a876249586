package dev.cairn.cli;

import dev.cairn.client.audit.JournalReader;
import dev.cairn.client.audit.JournalVerifier;
import dev.cairn.client.audit.JournalVerifier.Difference;
import dev.cairn.core.audit.Replay;
import dev.cairn.core.contract.CoordinatorSettings;
import java.io.PrintWriter;
import java.net.URI;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code cairn audit verify --rest-url URL}: the replayed journal against the live stores, through the REST API
 * ({@code --rest-url} and {@code --token-file} are the common keys of {@link CliKeys}).
 */
@Command(name = "verify",
        description = "Replays the whole journal and compares, per job of the journal, GET /jobs/{id}, "
                + "GET /jobs/{id}/checkpoints and GET /jobs/{id}/checkpoints/latest-completed of a live coordinator "
                + "with the same views of the replay, naming each difference; exit code 1 when there is any. The "
                + "coordinator keeps processing while the journal is read: run it at a quiet moment (no checkpoint "
                + "pending, no request or ack arriving), or differences of the last moments are expected.")
final class AuditVerifyCommand extends AuditSubcommand {

    static final List<String> CSV_HEADER = List.of("job", "view", "path", "journal", "live");

    /** What a verification found, as the JSON output shows it. */
    record Report(String restUrl, long events, int jobs, List<Difference> differences) {}

    @Option(names = "--token", paramLabel = "TOKEN",
            description = "A bearer token that may read the jobs (default: the first line of --token-file, else the "
                    + "variable CAIRN_REST_TOKEN).")
    String token;

    @Override
    public Integer call() {
        URI base = base();
        String bearer = token == null || token.isBlank() ? audit.cli.token(spec) : token.strip();
        return AuditCommand.reporting(spec, () -> {
            Replay replay = new Replay(CoordinatorSettings.DEFAULTS, null);
            audit.read(spec, JournalReader.Bounds.ALL, replay::accept, false);
            List<Difference> differences = JournalVerifier.verify(replay.state(), audit.live(base, bearer));
            Report report = new Report(base.toString(), replay.applied(), replay.state().jobIds().size(), differences);
            write(spec.commandLine().getOut(), report);
            return differences.isEmpty() ? 0 : 1;
        });
    }

    /** The REST API of {@code --rest-url} (common to every command), which verify needs. */
    private URI base() {
        return audit.cli.restUrl(spec).orElseThrow(() -> usage("Missing --rest-url URL: the coordinator's REST "
                + "API to compare the journal with, e.g. --rest-url http://coordinator:8081 (or set CAIRN_REST_URL)"));
    }

    private void write(PrintWriter out, Report report) {
        switch (audit.format) {
            case JSON -> AuditOutput.json(out, report);
            case CSV -> AuditOutput.csv(out, CSV_HEADER, report.differences().stream()
                    .map(d -> Arrays.<Object>asList(d.jobId(), d.view(), d.path(), d.journal(), d.live())).toList());
            default -> {
                report.differences().forEach(d -> out.println(d.describe()));
                out.println("Compared " + report.jobs() + (report.jobs() == 1 ? " job (" : " jobs (")
                        + report.events() + " journal events) with "
                        + report.restUrl() + ": " + (report.differences().isEmpty() ? "no difference."
                                : report.differences().size() + " difference"
                                        + (report.differences().size() == 1 ? "." : "s.")));
                out.flush();
            }
        }
    }
}
