// The C++ port of supercluster (mapbox/supercluster.hpp, the clustering inside MapLibre Native
// and the Mapbox Maps SDKs), timed on the same inputs as `spatial-bench`'s `cluster.build`
// figures, so that both run on one machine in one session.
//
// The port and its headers are not part of this project. Put them under one include folder:
// `supercluster.hpp`, `kdbush.hpp` (the version with const `range`/`within`, as MapLibre vendors
// it), `mapbox/geometry.hpp` 1.0 with `mapbox/feature.hpp`, and `mapbox/variant.hpp` 1.2
// (Debian: `libmapbox-variant-dev`); rapidjson reads GeoJSON (Debian: `rapidjson-dev`). Then
//
//     clang++ -O3 -std=c++17 -IINCLUDE Scripts/reference/supercluster-port-bench.cpp -o port-bench
//
// (g++ -O3 works too; clang was about 10% faster here. rapidjson 1.1 with a recent clang needs
// its `GenericStringRef::operator=`, which no code here uses, deleted from a local copy.)
// Where the headers came from when the binary was last rebuilt (thirty-fourth session), for
// when no vendored copy is at hand: `supercluster.hpp` from mapbox/supercluster.hpp; `kdbush.hpp`
// from mourner/kdbush.hpp, whose `range`, `within` (public and private) and `sqDist` need `const`
// added; `mapbox/feature.hpp` from mapbox/geometry.hpp 1.x; `mapbox/geometry/*.hpp` 1.x from a
// vendored set (wagyu carries one); `mapbox/geometry.hpp` is then only its includes: point,
// line_string, polygon, multi_point, multi_line_string, multi_polygon, geometry,
// point_arithmetic, for_each_point, envelope. `--digest` on the DC hydrants must give 5 items at
// z9, 223 at z12, 7,156 at z15 and 8,752 at z16, as SpatialCore does.
//
//     port-bench file PATH.geojson [options]   the Point features of a file
//     port-bench uniform N [options]            Synthetic.uniform(N), seed 42
//     port-bench blobs N [options]              Synthetic.blobs(N), seed 4242
//
// options:
//   --radius R       cluster radius in pixels           (default 40)
//   --extent E       tile extent                         (default 512)
//   --maxzoom Z      max zoom                            (default 16)
//   --minzoom Z      min zoom                            (default 0)
//   --minpoints M    min points to form a cluster        (default 2)
//   --runs N         timed runs after one warm-up        (default 5)
//   --digest         one build, then per-zoom digest of getClusters(world, z); no timing
//   --no-props       file mode: do not copy properties / ids (coordinates only, as
//                    `spatial-bench`'s `cluster.build` feeds SpatialCore)
//   --props          synthetic mode: attach FLOW (number) and ENGINEID ("E-n") properties
//   --dump           print the input points (lng lat, %.17g) and exit (for checking the generators)
//
// Only the `Supercluster index(features, options)` constructor is timed. It copies the feature
// collection into the index, as upstream does; that copy is part of the measured time, as it is
// of a map SDK's build. The last line is one JSON object with the median, min, max and the
// resident sizes (the peak is reset after the input is read, so peak − before is what the
// builds add).

#include <supercluster.hpp>

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <sys/resource.h>
#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using mapbox::feature::feature;
using mapbox::feature::feature_collection;
using mapbox::feature::identifier;
using mapbox::feature::property_map;
using mapbox::feature::value;
using mapbox::supercluster::Options;
using mapbox::supercluster::Supercluster;

// ---------------------------------------------------------------------------------------------
// Read-only access to Supercluster's private per-zoom indexes, for --digest only.
// supercluster.hpp has no getClusters(bbox, zoom) (it offers getTile/getChildren/getLeaves/
// getClusterExpansionZoom), so the digest runs the same range query JS getClusters runs, on the
// port's own per-zoom KDBush. The header is not modified: this is the standard explicit-
// instantiation technique (access checking does not apply to explicit instantiation arguments).
template <auto M>
struct ZoomsAccess {
    friend auto zoomsMember() { return M; }
};
auto zoomsMember();
template struct ZoomsAccess<&Supercluster::zooms>;

// ---------------------------------------------------------------------------------------------
// The seeded generators of Sources/spatial-bench/Synthetic.swift, bit for bit.
struct LCG {
    std::uint32_t state;
    explicit LCG(std::uint32_t seed) : state(seed) {}
    std::uint32_t next32() {
        state = 1664525u * state + 1013904223u; // wrapping uint32 arithmetic, like &* and &+
        return state;
    }
    double next53() {
        const double hi = double(next32() >> 5);
        const double lo = double(next32() >> 6);
        return (hi * 67108864.0 + lo) / 9007199254740992.0;
    }
};

struct SyntheticPoint {
    double longitude;
    double latitude;
    double flow;
    int engineID;
};

static std::vector<SyntheticPoint> syntheticUniform(std::size_t n) {
    LCG rng(42);
    std::vector<SyntheticPoint> points;
    points.reserve(n);
    for (std::size_t i = 0; i < n; i++) {
        const double lng = -180.0 + 360.0 * rng.next53();
        const double lat = -85.0 + 170.0 * rng.next53();
        const double flow = double(rng.next32() >> 12) / 100.0;
        const int engine = 1 + int((rng.next32() >> 16) % 32u);
        points.push_back({ lng, lat, flow, engine });
    }
    return points;
}

static std::vector<SyntheticPoint> syntheticBlobs(std::size_t n) {
    LCG rng(4242);
    struct Centre { double x, y, sigma; };
    std::vector<Centre> centres;
    centres.reserve(1000);
    for (int i = 0; i < 1000; i++) {
        // Swift evaluates the tuple elements left to right.
        const double cx = -180.0 + 360.0 * rng.next53();
        const double cy = -70.0 + 140.0 * rng.next53();
        const double sigma = 0.05 + 2.0 * rng.next53();
        centres.push_back({ cx, cy, sigma });
    }
    const double pi = 3.141592653589793; // Double.pi
    std::vector<SyntheticPoint> points;
    points.reserve(n);
    for (std::size_t i = 0; i < n; i++) {
        const Centre &c = centres[i % centres.size()];
        // Box–Muller from two uniforms.
        const double u1 = std::max(rng.next53(), 1e-300);
        const double u2 = rng.next53();
        const double radius = std::sqrt(-2.0 * std::log(u1)) * c.sigma;
        const double angle = 2.0 * pi * u2;
        double lng = c.x + radius * std::cos(angle);
        const double lat = std::min(85.0, std::max(-85.0, c.y + radius * std::sin(angle)));
        if (lng >= 180.0) {
            lng -= 360.0;
        } else if (lng < -180.0) {
            lng += 360.0;
        }
        const double flow = double(rng.next32() >> 12) / 100.0;
        const int engine = 1 + int((rng.next32() >> 16) % 32u);
        points.push_back({ lng, lat, flow, engine });
    }
    return points;
}

// ---------------------------------------------------------------------------------------------
// GeoJSON -> mapbox::feature::feature_collection<double>, with MapLibre's (geojson-cpp's)
// conversion rules for values: uint64 if it fits, else int64, else double; strings, bools,
// null; arrays and objects recursively.
static value toValue(const rapidjson::Value &json) {
    switch (json.GetType()) {
    case rapidjson::kNullType:
        return mapbox::feature::null_value;
    case rapidjson::kFalseType:
        return false;
    case rapidjson::kTrueType:
        return true;
    case rapidjson::kStringType:
        return std::string(json.GetString(), json.GetStringLength());
    case rapidjson::kNumberType:
        if (json.IsUint64()) return std::uint64_t(json.GetUint64());
        if (json.IsInt64()) return std::int64_t(json.GetInt64());
        return json.GetDouble();
    case rapidjson::kArrayType: {
        value::array_type array;
        array.reserve(json.Size());
        for (const auto &element : json.GetArray()) array.emplace_back(toValue(element));
        return array;
    }
    case rapidjson::kObjectType: {
        value::object_type object;
        for (const auto &member : json.GetObject()) {
            object.emplace(std::string(member.name.GetString(), member.name.GetStringLength()),
                           toValue(member.value));
        }
        return object;
    }
    }
    return mapbox::feature::null_value;
}

static identifier toIdentifier(const rapidjson::Value &json) {
    if (json.IsString()) return std::string(json.GetString(), json.GetStringLength());
    if (json.IsUint64()) return std::uint64_t(json.GetUint64());
    if (json.IsInt64()) return std::int64_t(json.GetInt64());
    if (json.IsNumber()) return json.GetDouble();
    return mapbox::feature::null_value;
}

struct Input {
    std::string name;
    feature_collection<double> features;
    std::vector<std::uint32_t> originalIndex; // index of each kept feature in the source array
    std::size_t sourceCount = 0;              // features in the source (including skipped ones)
    std::size_t skippedNull = 0, skippedOther = 0, outOfRangeLat = 0;
};

static bool readGeoJSON(const std::string &path, bool withProperties, Input &input) {
    std::ifstream file(path, std::ios::binary);
    if (!file) {
        std::fprintf(stderr, "cannot open %s\n", path.c_str());
        return false;
    }
    std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    {
        rapidjson::Document doc;
        doc.Parse<rapidjson::kParseFullPrecisionFlag>(text.c_str(), text.size());
        if (doc.HasParseError()) {
            std::fprintf(stderr, "JSON parse error at %zu: %s\n", doc.GetErrorOffset(),
                         rapidjson::GetParseError_En(doc.GetParseError()));
            return false;
        }
        if (!doc.IsObject() || !doc.HasMember("features") || !doc["features"].IsArray()) {
            std::fprintf(stderr, "%s is not a FeatureCollection\n", path.c_str());
            return false;
        }
        const auto &features = doc["features"];
        input.sourceCount = features.Size();
        input.features.reserve(features.Size());
        for (rapidjson::SizeType i = 0; i < features.Size(); i++) {
            const auto &f = features[i];
            const auto geom = f.FindMember("geometry");
            if (geom == f.MemberEnd() || geom->value.IsNull()) {
                input.skippedNull++;
                continue;
            }
            const auto &g = geom->value;
            const auto type = g.FindMember("type");
            const auto coords = g.FindMember("coordinates");
            if (type == g.MemberEnd() || !type->value.IsString() ||
                std::strcmp(type->value.GetString(), "Point") != 0 || coords == g.MemberEnd() ||
                !coords->value.IsArray() || coords->value.Size() < 2 ||
                !coords->value[0].IsNumber() || !coords->value[1].IsNumber()) {
                input.skippedOther++;
                continue;
            }
            const double lng = coords->value[0].GetDouble();
            const double lat = coords->value[1].GetDouble();
            if (!(lat >= -90 && lat <= 90)) input.outOfRangeLat++;
            feature<double> out{ mapbox::geometry::point<double>(lng, lat) };
            if (withProperties) {
                const auto props = f.FindMember("properties");
                if (props != f.MemberEnd() && props->value.IsObject()) {
                    for (const auto &member : props->value.GetObject()) {
                        out.properties.emplace(
                            std::string(member.name.GetString(), member.name.GetStringLength()),
                            toValue(member.value));
                    }
                }
                const auto id = f.FindMember("id");
                if (id != f.MemberEnd()) out.id = toIdentifier(id->value);
            }
            input.features.push_back(std::move(out));
            input.originalIndex.push_back(i);
        }
    }
    return true;
}

static void fromSynthetic(const std::vector<SyntheticPoint> &points, bool withProperties,
                          Input &input) {
    input.sourceCount = points.size();
    input.features.reserve(points.size());
    input.originalIndex.reserve(points.size());
    for (std::size_t i = 0; i < points.size(); i++) {
        const auto &p = points[i];
        feature<double> f{ mapbox::geometry::point<double>(p.longitude, p.latitude) };
        if (withProperties) {
            f.properties.emplace("FLOW", p.flow);
            f.properties.emplace("ENGINEID", std::string("E-") + std::to_string(p.engineID));
        }
        input.features.push_back(std::move(f));
        input.originalIndex.push_back(static_cast<std::uint32_t>(i));
    }
}

// ---------------------------------------------------------------------------------------------
static long statusKB(const char *key) {
    std::ifstream status("/proc/self/status");
    std::string line;
    const std::size_t len = std::strlen(key);
    while (std::getline(status, line)) {
        if (line.compare(0, len, key) == 0 && line.size() > len && line[len] == ':') {
            return std::strtol(line.c_str() + len + 1, nullptr, 10);
        }
    }
    return -1;
}

static long maxRssKB() {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

// Mercator projection of JS supercluster's getClusters (same formula as the port's project()).
static double lngX(double lng) { return lng / 360 + 0.5; }
static double latY(double lat) {
    const double sine = std::sin(lat * M_PI / 180);
    const double y = 0.5 - 0.25 * std::log((1 + sine) / (1 - sine)) / M_PI;
    return y < 0 ? 0 : y > 1 ? 1 : y;
}

static void printDigest(Supercluster &index, const Input &input) {
    auto &zooms = index.*zoomsMember();
    std::printf("# getClusters([-180,-85,180,85], z) per zoom\n");
    std::printf("# ids as in the JS oracle: point -> index in the source features array; cluster -> "
                "port cluster_id + %zu (source feature count)\n",
                input.sourceCount);
    std::printf("%-4s %8s %12s %10s %15s %16s\n", "z", "count", "num_clusters", "num_points",
                "sum_point_count", "sorted_ids_fnv1a");
    for (int z = index.options.minZoom; z <= index.options.maxZoom + 1; z++) {
        const auto it = zooms.find(static_cast<std::uint8_t>(z));
        if (it == zooms.end()) continue;
        const auto &zoom = it->second;
        // JS getClusters with bbox [-180,-85,180,85]: lng span >= 360, so minLng=-180, maxLng=180.
        std::vector<std::uint32_t> ids;
        std::uint64_t count = 0, clusters = 0, sum = 0;
        zoom.tree.range(lngX(-180), latY(85), lngX(180), latY(-85), [&](const auto &i) {
            const auto &c = zoom.clusters[i];
            count++;
            if (c.num_points > 1) {
                clusters++;
                sum += c.num_points;
                ids.push_back(static_cast<std::uint32_t>(c.id + input.sourceCount));
            } else {
                sum += 1;
                ids.push_back(input.originalIndex[c.id]);
            }
        });
        std::sort(ids.begin(), ids.end());
        std::uint32_t hash = 0x811c9dc5u;
        for (const std::uint32_t id : ids) {
            for (int b = 0; b < 4; b++) {
                hash ^= (id >> (8 * b)) & 0xffu;
                hash *= 0x01000193u;
            }
        }
        std::printf("%-4d %8" PRIu64 " %12" PRIu64 " %10" PRIu64 " %15" PRIu64 " %16" PRIu32 "\n", z,
                    count, clusters, count - clusters, sum, hash);
    }
}

static void usage() {
    std::fprintf(stderr,
                 "usage: bench file PATH.geojson | uniform N | blobs N  [--radius R] [--extent E]\n"
                 "       [--maxzoom Z] [--minzoom Z] [--minpoints M] [--runs N] [--digest]\n"
                 "       [--no-props] [--props] [--dump]\n");
}

int main(int argc, char **argv) {
    if (argc < 3) {
        usage();
        return 2;
    }
    const std::string mode = argv[1];
    const std::string arg = argv[2];

    Options options; // radius 40, extent 512, maxZoom 16, minZoom 0, minPoints 2
    int runs = 5;
    bool digest = false, noProps = false, synthProps = false, dump = false;
    for (int i = 3; i < argc; i++) {
        const std::string a = argv[i];
        auto next = [&](long lo, long hi) -> long {
            if (i + 1 >= argc) {
                usage();
                std::exit(2);
            }
            const long v = std::strtol(argv[++i], nullptr, 10);
            if (v < lo || v > hi) {
                std::fprintf(stderr, "%s out of range [%ld, %ld]\n", a.c_str(), lo, hi);
                std::exit(2);
            }
            return v;
        };
        if (a == "--radius") options.radius = static_cast<std::uint16_t>(next(1, 65535));
        else if (a == "--extent") options.extent = static_cast<std::uint16_t>(next(1, 65535));
        else if (a == "--maxzoom") options.maxZoom = static_cast<std::uint8_t>(next(0, 30));
        else if (a == "--minzoom") options.minZoom = static_cast<std::uint8_t>(next(0, 30));
        else if (a == "--minpoints") options.minPoints = static_cast<std::size_t>(next(1, 1L << 30));
        else if (a == "--runs") runs = static_cast<int>(next(1, 1000));
        else if (a == "--digest") digest = true;
        else if (a == "--no-props") noProps = true;
        else if (a == "--props") synthProps = true;
        else if (a == "--dump") dump = true;
        else {
            usage();
            return 2;
        }
    }

    Input input;
    if (mode == "file") {
        input.name = arg;
        if (!readGeoJSON(arg, !noProps, input)) return 1;
    } else if (mode == "uniform" || mode == "blobs") {
        const long n = std::strtol(arg.c_str(), nullptr, 10);
        if (n <= 0) {
            usage();
            return 2;
        }
        input.name = mode + "-" + arg;
        const auto points = mode == "uniform" ? syntheticUniform(static_cast<std::size_t>(n))
                                              : syntheticBlobs(static_cast<std::size_t>(n));
        fromSynthetic(points, synthProps, input);
    } else {
        usage();
        return 2;
    }

    if (dump) {
        for (const auto &f : input.features) {
            const auto &p = f.geometry.get<mapbox::geometry::point<double>>();
            std::printf("%.17g %.17g\n", p.x, p.y);
        }
        return 0;
    }

    std::printf("dataset: %s\n", input.name.c_str());
    std::printf("points: %zu (source features %zu; skipped: %zu null geometry, %zu non-Point%s)\n",
                input.features.size(), input.sourceCount, input.skippedNull, input.skippedOther,
                input.outOfRangeLat ? "; WARNING: some |lat| > 90 kept" : "");
    std::printf("options: radius=%u extent=%u minZoom=%u maxZoom=%u minPoints=%zu properties=%s\n",
                unsigned(options.radius), unsigned(options.extent), unsigned(options.minZoom),
                unsigned(options.maxZoom), options.minPoints,
                (mode == "file" ? !noProps : synthProps) ? "yes" : "no");

    // Give back the parser's memory and reset the peak-RSS high-water mark, so that the peak
    // reported below is set by the builds (plus the resident input), not by JSON parsing.
    malloc_trim(0);
    bool peakReset = false;
    {
        std::FILE *clear = std::fopen("/proc/self/clear_refs", "w");
        if (clear) {
            peakReset = std::fputs("5", clear) >= 0;
            peakReset = (std::fclose(clear) == 0) && peakReset;
        }
    }
    const long rssBeforeKB = statusKB("VmRSS");

    if (digest) {
        Supercluster index(input.features, options);
        printDigest(index, input);
        return 0;
    }

    using clock = std::chrono::steady_clock;
    std::vector<double> times;
    for (int r = 0; r < runs + 1; r++) {
        const auto t0 = clock::now();
        auto index = std::make_unique<Supercluster>(input.features, options);
        const auto t1 = clock::now();
        index.reset(); // destruction is not timed
        if (r > 0) times.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    std::vector<double> sorted = times;
    std::sort(sorted.begin(), sorted.end());
    const std::size_t m = sorted.size();
    const double median = m % 2 ? sorted[m / 2] : (sorted[m / 2 - 1] + sorted[m / 2]) / 2;

    // VmHWM follows the reset above; getrusage's maximum survives exec on Linux, so when this
    // program is started by another (spatial-bench --reference-port) it can report the parent's.
    const long hwmKB = statusKB("VmHWM");
    const long peakKB = peakReset && hwmKB > 0 ? hwmKB : maxRssKB();
    std::printf("build_ms: median=%.3f min=%.3f max=%.3f (runs=%d after 1 warm-up)\n", median,
                sorted.front(), sorted.back(), runs);
    std::printf("runs_ms:");
    for (const double t : times) std::printf(" %.3f", t);
    std::printf("\n");
    std::printf("rss_before_first_build_bytes: %ld\n", rssBeforeKB * 1024);
    std::printf("peak_rss_bytes: %ld (%s)\n", peakKB * 1024,
                peakReset ? "VmHWM, reset before the builds" : "getrusage ru_maxrss, NOT reset: includes input parsing");
    std::printf("peak_minus_before_bytes: %ld\n", (peakKB - rssBeforeKB) * 1024);
    std::printf("vm_hwm_bytes: %ld\n", hwmKB * 1024);
    std::printf("{\"dataset\":\"%s\",\"n\":%zu,\"radius\":%u,\"extent\":%u,\"maxZoom\":%u,"
                "\"minPoints\":%zu,\"runs\":%d,\"median_ms\":%.4f,\"min_ms\":%.4f,\"max_ms\":%.4f,"
                "\"rss_before_bytes\":%ld,\"peak_rss_bytes\":%ld,\"peak_reset\":%s}\n",
                input.name.c_str(), input.features.size(), unsigned(options.radius),
                unsigned(options.extent), unsigned(options.maxZoom), options.minPoints, runs, median,
                sorted.front(), sorted.back(), rssBeforeKB * 1024, peakKB * 1024,
                peakReset ? "true" : "false");
    return 0;
}
