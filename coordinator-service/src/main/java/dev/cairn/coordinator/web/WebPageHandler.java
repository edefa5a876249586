package dev.cairn.coordinator.web;

import dev.cairn.coordinator.rest.ApiViews;
import dev.cairn.coordinator.rest.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Map;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Serves the web page: {@code /} (the page) and its assets under {@code /ui/} ({@code app.js}, {@code charts.js},
 * {@code style.css}, {@code favicon.svg}), read once from the jar's {@code cairn-ui/} folder. Every other path is
 * left to the next handler (the REST API). The page only talks to this origin: its Content-Security-Policy forbids
 * inline scripts and other origins. A method other than GET or HEAD on a page path is answered 405.
 */
public final class WebPageHandler extends Handler.Abstract {

    private static final String FOLDER = "cairn-ui/";
    private static final String SECURITY_POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
    private static final Map<String, String> PATHS = Map.of(
            "/", "index.html",
            "/index.html", "index.html",
            "/ui/app.js", "app.js",
            "/ui/charts.js", "charts.js",
            "/ui/style.css", "style.css",
            "/ui/favicon.svg", "favicon.svg");

    private record Asset(byte[] bytes, String contentType) {
    }

    private final Map<String, Asset> assets;

    /** @throws IllegalStateException when an asset is missing from the class path (a broken build) */
    public WebPageHandler() {
        this.assets = Map.of(
                "index.html", load("index.html", "text/html; charset=utf-8"),
                "app.js", load("app.js", "text/javascript; charset=utf-8"),
                "charts.js", load("charts.js", "text/javascript; charset=utf-8"),
                "style.css", load("style.css", "text/css; charset=utf-8"),
                "favicon.svg", load("favicon.svg", "image/svg+xml"));
    }

    private static Asset load(String name, String contentType) {
        try (InputStream in = WebPageHandler.class.getClassLoader().getResourceAsStream(FOLDER + name)) {
            if (in == null) {
                throw new IllegalStateException("the web page's " + FOLDER + name + " is missing from the class path");
            }
            return new Asset(in.readAllBytes(), contentType);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the web page's " + FOLDER + name, e);
        }
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        String name = PATHS.get(request.getHttpURI().getPath());
        if (name == null) {
            return false;
        }
        String method = request.getMethod();
        boolean head = method.equals("HEAD");
        if (!head && !method.equals("GET")) {
            response.setStatus(405);
            response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD");
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
            response.write(true, ByteBuffer.wrap(Json.bytes(new ApiViews.Error(method + " is not allowed on the web "
                    + "page; allowed: GET, HEAD"))), callback);
            return true;
        }
        Asset asset = assets.get(name);
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, asset.contentType());
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache");
        response.getHeaders().put("X-Content-Type-Options", "nosniff");
        response.getHeaders().put("Content-Security-Policy", SECURITY_POLICY);
        response.getHeaders().put("Referrer-Policy", "no-referrer");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, asset.bytes().length);
        response.write(true, head ? ByteBuffer.allocate(0) : ByteBuffer.wrap(asset.bytes()), callback);
        return true;
    }
}
