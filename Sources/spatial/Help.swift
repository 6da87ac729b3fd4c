/// The help texts of `spatial` and of each subcommand.
enum Help {
    static let exitCodes = """
        Exit codes:
          0  success
          1  input error: missing or unreadable file, invalid JSON or GeoJSON, data the library rejects
          2  usage error: unknown subcommand or option, missing or malformed value
          3  not found: no cluster with the given --cluster-id
        Errors print one line on stderr, starting with "spatial: ".
        """

    static let tool = """
        spatial: try SpatialCore from the command line.

        Usage: spatial <subcommand> [options]

        Subcommands:
          clusters        clusters and points at a zoom (or a zoom range) as GeoJSON
          children        the children of a cluster as GeoJSON
          leaves          the points of a cluster as GeoJSON
          expansion-zoom  the zoom at which a cluster splits
          tile            one tile of clusters with integer tile coordinates (JSON)
          query           the features of a style's scene under a point or in a rectangle (JSON)
          render          an SVG picture of a style's scene, with a tap and its hits highlighted

        FILE is a GeoJSON FeatureCollection of points, or - for standard input; STYLE is a
        MapLibre style document (version 8) whose geojson sources name their data inline or by a
        path relative to the style file.
        Run `spatial <subcommand> --help` for its options.

        \(exitCodes)
        """

    static let clusterOptions = """
        Clustering options (supercluster's defaults):
          --radius R              cluster radius in pixels (40)
          --extent E              tile extent the radius is relative to (512)
          --min-zoom Z            lowest zoom clusters are built for (0)
          --max-zoom Z            highest zoom clusters are built for (16)
          --min-points N          smallest number of points that forms a cluster (2)
          --precision P           double (default) or float32 (supercluster's exact Float32 rounding)
          --cluster-properties J  Mapbox clusterProperties as JSON text, or @FILE to read it from a file,
                                  e.g. '{"sum":["+",["get","scalerank"]]}'
        """

    static let clusters = """
        Usage: spatial clusters FILE --zoom Z [--bbox W,S,E,N] [clustering options]
               spatial clusters FILE --zoom A-B [...]

        Prints the clusters and points visible at zoom Z inside the box (default -180,-85,180,85,
        the square Web Mercator world a map shows: points beyond 85 degrees of latitude need
        --bbox -180,-90,180,90) as one GeoJSON FeatureCollection. Clusters carry their properties
        (cluster, cluster_id, point_count, point_count_abbreviated and the cluster properties) and
        cluster_id as the feature id; points are the original features with their own id, or their
        input index as id when they have none.
        With --zoom A-B (whole zooms, A <= B) prints one FeatureCollection per line (NDJSON), each
        with a "zoom" member.

        \(clusterOptions)

        \(exitCodes)
        """

    static let children = """
        Usage: spatial children FILE --cluster-id N [clustering options]

        Prints the items one zoom below the cluster (clusters and points) as a GeoJSON
        FeatureCollection. The index must be built with the same options that produced the id.

        \(clusterOptions)

        \(exitCodes)
        """

    static let leaves = """
        Usage: spatial leaves FILE --cluster-id N [--limit L] [--offset O] [clustering options]

        Prints the input points of the cluster as a GeoJSON FeatureCollection, at most L of them
        (default 10; --limit all for every one) after skipping O (default 0).

        \(clusterOptions)

        \(exitCodes)
        """

    static let expansionZoom = """
        Usage: spatial expansion-zoom FILE --cluster-id N [clustering options]

        Prints the zoom at which the cluster splits into more than one item, as one number.

        \(clusterOptions)

        \(exitCodes)
        """

    static let tile = """
        Usage: spatial tile FILE Z/X/Y [clustering options]

        Prints the tile as JSON: {"z":Z,"x":X,"y":Y,"features":[...]}, each feature as supercluster's
        getTile gives it ({"type":1,"geometry":[[x,y]],"tags":{...},"id":...}) with integer tile
        coordinates in 0 ... extent (outside in the padding); "id" is a cluster's id or a point's own
        id, absent for a point without one. An empty tile has no features.

        \(clusterOptions)

        \(exitCodes)
        """

    static let sceneOptions = """
        Camera options:
          --center LAT,LNG        the map centre (required)
          --zoom Z                the zoom, 0 ... 24 (required)
          --size WxH              the view size in points, e.g. 390x844 (required)
          --bearing B             degrees clockwise from north (0)
          --images N=WxH[,...]    icon images the style names, with their sizes in points
          --layers a,b            only these layers (default all)
        """

    static let query = """
        Usage: spatial query STYLE.json --center LAT,LNG --zoom Z --size WxH [--bearing B]
                                        (--at X,Y | --rect X,Y,W,H) [--layers a,b] [--images ...]

        Prints the scene's visibleFeatures answer as a JSON array, topmost layer first:
        [{"layer":"...","source":"...","feature":{GeoJSON Feature}}, ...]. A cluster is a feature
        with its cluster properties and cluster_id as id. View points start top-left, y down.

        \(sceneOptions)

        \(exitCodes)
        """

    static let render = """
        Usage: spatial render STYLE.json --center LAT,LNG --zoom Z --size WxH [--bearing B]
                                         [--at X,Y] [--layers a,b] [--images ...] --out FILE.svg

        Draws what the scene shows as SVG (--out - writes to stdout): circles with their evaluated
        radius, colour and stroke; symbol icon boxes and text labels (such as cluster counts) with
        their approximate text boxes; bottom layer first. With --at, the tapped point is marked
        and the features it hits are outlined in orange. Each feature is a <g class="feature ...">
        with data-layer, data-source and, for clusters, data-cluster-id and data-point-count.

        \(sceneOptions)

        \(exitCodes)
        """
}
