"""Units as a dimension and a factor to its base unit, keyed by quantulum3's unit names.

Values of one dimension compare across units ("3 megawatts" / "3,000 kilowatts",
"5 km" / "5,100 metres"); a unit not named here keeps a kind of its own (its entity
and name), comparable only with itself. Kept apart from :mod:`.quantities`, which
reads values, so the table can grow without that module growing.
"""

from __future__ import annotations

#: Linear units: (dimension, factor to the dimension's base unit). Energy is in
#: watt-hours, power in watts, mass in grams, volume in litres.
BASE_UNITS: dict[str, tuple[str, float]] = {
    "kilometre": ("length", 1000.0),
    "metre": ("length", 1.0),
    "centimetre": ("length", 0.01),
    "millimetre": ("length", 0.001),
    "mile": ("length", 1609.344),
    "foot": ("length", 0.3048),
    "inch": ("length", 0.0254),
    "tonne": ("mass", 1e6),
    "kilogram": ("mass", 1000.0),
    "gram": ("mass", 1.0),
    "milligram": ("mass", 0.001),
    "microgram": ("mass", 1e-6),
    "pound-mass": ("mass", 453.59237),
    "second": ("time", 1.0),
    "minute": ("time", 60.0),
    "hour": ("time", 3600.0),
    "day": ("time", 86400.0),
    "week": ("time", 604800.0),
    "month": ("time", 2629800.0),
    "year": ("time", 31557600.0),
    "decade": ("time", 315576000.0),
    "century": ("time", 3155760000.0),
    "metre per second": ("speed", 1.0),
    "kilometre per hour": ("speed", 1.0 / 3.6),
    "mile per hour": ("speed", 0.44704),
    "knot": ("speed", 1852.0 / 3600.0),
    "yard": ("length", 0.9144),
    "ounce": ("mass", 28.349523125),
    "litre": ("volume", 1.0),
    "millilitre": ("volume", 0.001),
    "cubic centimetre": ("volume", 0.001),  # quantulum3 reads "ml" as cm³
    "cubic metre": ("volume", 1000.0),
    "square metre": ("area", 1.0),
    "square kilometre": ("area", 1e6),
    "square mile": ("area", 2589988.110336),
    "acre": ("area", 4046.8564224),
    "hectare": ("area", 1e4),
    "watt": ("power", 1.0),
    "kilowatt": ("power", 1e3),
    "megawatt": ("power", 1e6),
    "gigawatt": ("power", 1e9),
    "horsepower": ("power", 745.69987158227022),
    "kilowatt hour": ("energy", 1e3),
    "megawatt hour": ("energy", 1e6),
    "gigawatt hour": ("energy", 1e9),
    "percentage": ("percent", 1.0),
    "dozen": ("count", 12.0),
}
#: Units whose scale does not start at zero: (kind, factor, offset) to kelvin, so
#: "40 degrees Celsius" and "104 degrees Fahrenheit" are one interval.
OFFSET_UNITS: dict[str, tuple[str, float, float]] = {
    "kelvin": ("temperature", 1.0, 0.0),
    "degree Celsius": ("temperature", 1.0, 273.15),
    "degree fahrenheit": ("temperature", 5.0 / 9.0, 459.67 * 5.0 / 9.0),
}
