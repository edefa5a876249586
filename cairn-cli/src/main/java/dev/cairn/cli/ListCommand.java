package dev.cairn.cli;

import dev.cairn.client.rest.Checkpoints;
import dev.cairn.client.rest.JobOverview;
import java.io.PrintWriter;
import picocli.CommandLine.Command;

/** {@code cairn list}: every job of every coordinator instance and its status, from {@code GET /jobs}. */
@Command(name = "list",
        description = "Lists every job and its status (Flink: flink list), with its pending checkpoints, its latest "
                + "completed checkpoint and its checkpoint counts: GET /jobs of the REST API (--rest-url).")
final class ListCommand extends RestReadCommand {

    @Override
    public Integer call() {
        JobOverview.Listing listing = answer(client().jobs());
        PrintWriter out = spec.commandLine().getOut();
        if (format == Format.JSON) {
            AuditOutput.json(out, listing);
        } else {
            text(out, listing);
        }
        out.flush();
        return 0;
    }

    private static void text(PrintWriter out, JobOverview.Listing listing) {
        if (listing.jobs().isEmpty()) {
            out.println("No jobs.");
        } else {
            String row = "%-32s %-10s %8s %8s %10s %10s%n";
            out.printf(row, "JOB", "STATUS", "PENDING", "LATEST", "COMPLETED", "FAILED");
            for (JobOverview job : listing.jobs()) {
                Checkpoints.Counts counts = job.counts();
                out.printf(row, job.id(), job.status(), job.pendingCheckpoints(),
                        job.latestCompletedId() == null ? "-" : job.latestCompletedId(), counts.completed(),
                        counts.failed());
            }
        }
        listing.unreachable().forEach(instance -> out.println("warning: instance " + instance + " did not answer; "
                + "its jobs are missing"));
    }
}
