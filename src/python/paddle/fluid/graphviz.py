"""paddle.fluid.graphviz: the Graphviz text `debugger.draw_block_graphviz`
writes, as 1.x's: a `digraph G` of nodes (parameters as tables,
other variables and ops as boxes) in random order (1.x shuffled them with
Python's `random`), then the edges; writing it also starts Graphviz's
`dot` to render a PDF next to it."""
import logging
import os
import random
import subprocess


def crepr(v):
    if isinstance(v, str):
        return '"%s"' % v
    return str(v)


class Rank(object):
    def __init__(self, kind, name, priority):
        self.kind = kind
        self.name = name
        self.priority = priority
        self.nodes = []

    def __str__(self):
        if not self.nodes:
            return ""
        return "{rank=%s;%s}" % (self.kind, ",".join(node.name for node in self.nodes))


class Graph(object):
    rank_counter = 0

    def __init__(self, title, **attrs):
        self.title = title
        self.attrs = attrs
        self.nodes = []
        self.edges = []
        self.rank_groups = {}

    def code(self):
        return str(self)

    def rank_group(self, kind, priority):
        name = "rankgroup-%d" % Graph.rank_counter
        Graph.rank_counter += 1
        self.rank_groups[name] = Rank(kind, name, priority)
        return name

    def node(self, label, prefix, description="", **attrs):
        node = Node(label, prefix, description, **attrs)
        if "rank" in attrs:
            rank = self.rank_groups[attrs.pop("rank")]
            rank.nodes.append(node)
        self.nodes.append(node)
        return node

    def edge(self, source, target, **attrs):
        edge = Edge(source, target, **attrs)
        self.edges.append(edge)
        return edge

    def compile(self, dot_path):
        """Writes the graph to `dot_path` and starts `dot -Tpdf` on it (not
        waited for); returns the PDF's path."""
        with open(dot_path, "w") as f:
            f.write(str(self))
        image_path = os.path.join(os.path.dirname(dot_path), dot_path[:-3] + "pdf")
        subprocess.Popen(["dot", "-Tpdf", dot_path, "-o", image_path],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        logging.warning("write block debug graph to {}".format(image_path))
        return image_path

    def show(self, dot_path):
        image = self.compile(dot_path)
        subprocess.Popen(["open", image], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)

    def _rank_repr(self):
        # 1.x sorted by a comparison that never says "less", which keeps
        # the groups in the order they were made.
        return "\n".join(str(rank) for rank in self.rank_groups.values()) + "\n"

    def __str__(self):
        lines = ["digraph G {", "title = {}".format(crepr(self.title))]
        for key in self.attrs:
            lines.append("{}={};".format(key, crepr(self.attrs[key])))
        lines.append(self._rank_repr())
        random.shuffle(self.nodes)
        lines += [str(node) for node in self.nodes]
        lines += [str(edge) for edge in self.edges]
        lines.append("}")
        return "\n".join(lines)


class Node(object):
    counter = 1

    def __init__(self, label, prefix, description="", **attrs):
        self.label = label
        self.name = "%s_%d" % (prefix, Node.counter)
        self.description = description
        self.attrs = attrs
        Node.counter += 1

    def __str__(self):
        extra = ""
        if self.attrs:
            extra = "," + ",".join("%s=%s" % (k, crepr(v)) for k, v in self.attrs.items())
        return "{} [label={} {} ];".format(self.name, self.label, extra)


class Edge(object):
    def __init__(self, source, target, **attrs):
        self.source = source
        self.target = target
        self.attrs = attrs

    def __str__(self):
        extra = ""
        if self.attrs:
            extra = "[" + ",".join("{}={}".format(k, crepr(v)) for k, v in self.attrs.items()) + "]"
        return "{} -> {} {}".format(self.source.name, self.target.name, extra)


class GraphPreviewGenerator(object):
    """The graph of a block: parameters, arguments, ops and their edges."""

    def __init__(self, title):
        self.graph = Graph(title, layout="dot", concentrate="true", rankdir="TB")
        self.op_rank = self.graph.rank_group("same", 2)
        self.param_rank = self.graph.rank_group("same", 1)
        self.arg_rank = self.graph.rank_group("same", 0)

    def __call__(self, path="temp.dot", show=False):
        if show:
            self.graph.show(path)
        else:
            self.graph.compile(path)

    def add_param(self, name, data_type, highlight=False):
        label = "\n".join([
            '<<table cellpadding="5">',
            "  <tr>",
            '    <td bgcolor="#2b787e">',
            "    <b>",
            name,
            "    </b>",
            "    </td>",
            "  </tr>",
            "  <tr>",
            "    <td>",
            str(data_type),
            "    </td>  </tr>",
            "</table>>",
        ])
        return self.graph.node(label, prefix="param", description=name, shape="none",
                               style="rounded,filled,bold", width="1.3",
                               color="orange" if highlight else "#148b97",
                               fontcolor="#ffffff", fontname="Arial")

    def add_op(self, opType, highlight=False):
        return self.graph.node("<<B>%s</B>>" % opType, prefix="op", description=opType,
                               shape="box", style="rounded, filled, bold",
                               color="orange" if highlight else "#303A3A", fontname="Arial",
                               fontcolor="#ffffff", width="1.3", height="0.84")

    def add_arg(self, name, highlight=False):
        return self.graph.node(crepr(name), prefix="arg", description=name, shape="box",
                               style="rounded,filled,bold", fontname="Arial",
                               fontcolor="#999999", color="orange" if highlight else "#dddddd")

    def add_edge(self, source, target, highlight=False, **kwargs):
        return self.graph.edge(source, target, color="orange" if highlight else "#00000",
                               **kwargs)
