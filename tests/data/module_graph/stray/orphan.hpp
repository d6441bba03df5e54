// A directory of sources that is no module: the check must name it.
